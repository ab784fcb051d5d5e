{{- define "preflight-gate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "preflight-gate.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "preflight-gate.selectorLabels" -}}
app.kubernetes.io/name: {{ include "preflight-gate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "preflight-gate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "preflight-gate.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "preflight-gate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "preflight-gate.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding WEBHOOK_SECRET, or "" when requests are unsigned (insecure). */}}
{{- define "preflight-gate.webhookSecretName" -}}
{{- if .Values.webhook.existingSecret }}{{ .Values.webhook.existingSecret }}{{- else if .Values.webhook.secret }}{{ include "preflight-gate.fullname" . }}{{- end }}
{{- end }}

{{- define "preflight-gate.webhookSecretKey" -}}
{{- if .Values.webhook.existingSecret }}{{ .Values.webhook.existingSecretKey }}{{- else }}webhook-secret{{- end }}
{{- end }}

{{/* The Secret holding REDIS_URL, or "" without Redis. */}}
{{- define "preflight-gate.redisSecretName" -}}
{{- if or .Values.state.redis.sentinels .Values.state.redis.clusterNodes }}{{- else if .Values.state.redis.existingSecret }}{{ .Values.state.redis.existingSecret }}{{- else if .Values.state.redis.url }}{{ include "preflight-gate.fullname" . }}{{- end }}
{{- end }}

{{- define "preflight-gate.redisSecretKey" -}}
{{- if .Values.state.redis.existingSecret }}{{ .Values.state.redis.existingSecretKey }}{{- else }}redis-url{{- end }}
{{- end }}

{{/* The Secret holding the Steadybit access token, or "" without the Platform API. */}}
{{- define "preflight-gate.steadybitSecretName" -}}
{{- if .Values.steadybit.url }}{{- if .Values.steadybit.existingSecret }}{{ .Values.steadybit.existingSecret }}{{- else if .Values.steadybit.token }}{{ include "preflight-gate.fullname" . }}{{- end }}{{- end }}
{{- end }}

{{- define "preflight-gate.steadybitSecretKey" -}}
{{- if .Values.steadybit.existingSecret }}{{ .Values.steadybit.existingSecretKey }}{{- else }}steadybit-token{{- end }}
{{- end }}

{{/* The ConfigMap with the policies, or "" to use the policies built into the image. */}}
{{- define "preflight-gate.policiesConfigMap" -}}
{{- if .Values.policies.existingConfigMap }}{{ .Values.policies.existingConfigMap }}{{- else if .Values.policies.files }}{{ include "preflight-gate.fullname" . }}-policies{{- end }}
{{- end }}

{{/* Refuses values that would deploy an unsafe or broken service, with the value to fix. */}}
{{- define "preflight-gate.validate" -}}
{{- if and (not .Values.webhook.secret) (not .Values.webhook.existingSecret) (not .Values.webhook.insecure) }}
{{- fail "webhook secret required: set webhook.secret (or webhook.existingSecret) to the secret Steadybit signs its webhooks with, or set webhook.insecure=true to accept unsigned requests (anyone who can reach the service can then decide runs)" }}
{{- end }}
{{- if and .Values.steadybit.url (not .Values.steadybit.token) (not .Values.steadybit.existingSecret) }}
{{- fail "steadybit.url is set but no access token: set steadybit.token (or steadybit.existingSecret), or leave steadybit.url empty" }}
{{- end }}
{{- if and .Values.steadybit.token .Values.steadybit.existingSecret }}
{{- fail "set either steadybit.token or steadybit.existingSecret, not both" }}
{{- end }}
{{- if and .Values.webhook.secret .Values.webhook.existingSecret }}
{{- fail "set either webhook.secret or webhook.existingSecret, not both" }}
{{- end }}
{{- if and .Values.policies.files .Values.policies.existingConfigMap }}
{{- fail "set either policies.files or policies.existingConfigMap, not both" }}
{{- end }}
{{- if and .Values.state.redis.url .Values.state.redis.existingSecret }}
{{- fail "set either state.redis.url or state.redis.existingSecret, not both" }}
{{- end }}
{{- $needed := add (int .Values.preStopSleepSeconds) (int .Values.config.shutdownTimeoutSeconds) }}
{{- if le (int .Values.terminationGracePeriodSeconds) $needed }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be longer than preStopSleepSeconds + config.shutdownTimeoutSeconds (%d), or requests in flight are cut off" (int .Values.terminationGracePeriodSeconds) $needed) }}
{{- end }}
{{- end }}
