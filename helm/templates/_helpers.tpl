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

{{/* The helm test pod's labels: not the selector labels, so that neither the Service (its requests
would reach the test pod itself) nor the NetworkPolicy (its egress rules) selects it. */}}
{{- define "preflight-gate.testSelectorLabels" -}}
app.kubernetes.io/name: {{ include "preflight-gate.name" . }}-test
app.kubernetes.io/instance: {{ .Release.Name }}
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

{{/* "redis" when the replicas share their guardrail state through Redis, or "" when every replica
remembers on its own. The Steadybit Platform API is not shared state: it is read every
syncIntervalSeconds, events reach one replica at once, and cool-downs, quotas and exception use
counts would still be kept per replica (issue 49: a one-use exception waived a run on each). */}}
{{- define "preflight-gate.sharedState" -}}
{{- $redis := or .Values.state.redis.url .Values.state.redis.existingSecret .Values.state.redis.sentinels .Values.state.redis.clusterNodes }}
{{- /* An empty value is unset for the service (redis-config.ts): it counts only with a value or a valueFrom. */}}
{{- range .Values.extraEnv }}{{ if and (has (toString .name) (list "REDIS_URL" "REDIS_SENTINELS" "REDIS_CLUSTER_NODES")) (or .valueFrom (trim (toString (default "" .value)))) }}{{ $redis = true }}{{ end }}{{ end }}
{{- if $redis }}redis{{- end }}
{{- end }}

{{/* The fewest and the most pods the chart runs (the HPA's bounds when autoscaling). */}}
{{- define "preflight-gate.minReplicas" -}}
{{- if .Values.autoscaling.enabled }}{{ int .Values.autoscaling.minReplicas }}{{ else }}{{ int .Values.replicaCount }}{{ end }}
{{- end }}
{{- define "preflight-gate.maxReplicas" -}}
{{- if .Values.autoscaling.enabled }}{{ int .Values.autoscaling.maxReplicas }}{{ else }}{{ int .Values.replicaCount }}{{ end }}
{{- end }}

{{/* The PodDisruptionBudget is rendered only when it leaves a pod to evict: with minAvailable at or
above the fewest pods, it would block every node drain. */}}
{{- define "preflight-gate.pdbAllowsEviction" -}}
{{- $min := int (include "preflight-gate.minReplicas" .) }}
{{- $available := .Values.podDisruptionBudget.minAvailable }}
{{- if kindIs "string" $available }}
{{- $percent := int (trimSuffix "%" $available) }}
{{- if and (gt $min 1) (lt (mul $percent $min) (mul 100 (sub $min 1) | add1)) }}true{{ end }}
{{- else if lt (int $available) $min }}true{{- end }}
{{- end }}

{{/* Refuses values that would deploy an unsafe or broken service, with the value to fix. */}}
{{- define "preflight-gate.validate" -}}
{{- if and (not .Values.webhook.secret) (not .Values.webhook.existingSecret) (not .Values.webhook.insecure) }}
{{- fail "webhook secret required: set webhook.secret (or webhook.existingSecret) to the secret Steadybit signs its webhooks with, or set webhook.insecure=true to accept unsigned requests (anyone who can reach the service can then decide runs)" }}
{{- end }}
{{- if and .Values.steadybit.url (not .Values.steadybit.token) (not .Values.steadybit.existingSecret) }}
{{- fail "steadybit.url is set but no access token: set steadybit.token (or steadybit.existingSecret), or leave steadybit.url empty" }}
{{- end }}
{{- if le (int .Values.steadybit.environmentNameMaxAgeSeconds) (int .Values.steadybit.environmentsRefreshSeconds) }}
{{- fail "steadybit.environmentNameMaxAgeSeconds must be longer than steadybit.environmentsRefreshSeconds, or every environment name would expire between two refreshes" }}
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
{{- $topologies := list }}
{{- if .Values.state.redis.url }}{{ $topologies = append $topologies "state.redis.url" }}{{ end }}
{{- if .Values.state.redis.sentinels }}{{ $topologies = append $topologies "state.redis.sentinels" }}{{ end }}
{{- if .Values.state.redis.clusterNodes }}{{ $topologies = append $topologies "state.redis.clusterNodes" }}{{ end }}
{{- if gt (len $topologies) 1 }}
{{- fail (printf "set one Redis topology, not %s: a standalone Redis (state.redis.url, or its URL in state.redis.existingSecret), Sentinel (state.redis.sentinels) or Cluster (state.redis.clusterNodes)" (join " and " $topologies)) }}
{{- end }}
{{- range $kind, $source := dict "alertmanager" .Values.signals.alertmanager "prometheus" .Values.signals.prometheus }}
{{- if and $source.bearerTokenKey (or $source.usernameKey $source.passwordKey) }}
{{- fail (printf "signals.%s: give a bearer token (bearerTokenKey) or basic auth (usernameKey and passwordKey), not both" $kind) }}
{{- end }}
{{- if ne (not $source.usernameKey) (not $source.passwordKey) }}
{{- fail (printf "signals.%s.usernameKey and signals.%s.passwordKey go together: set both or neither" $kind $kind) }}
{{- end }}
{{- if and (not $source.url) (or $source.bearerTokenKey $source.usernameKey $source.caFile) }}
{{- fail (printf "signals.%s has credentials or a CA file but no url: set signals.%s.url, or remove them" $kind $kind) }}
{{- end }}
{{- end }}
{{- if and .Values.signals.sources .Values.signals.sourcesFile }}
{{- fail "set signals.sources (the chart writes SIGNAL_SOURCES_FILE) or signals.sourcesFile (a file you mount), not both" }}
{{- end }}
{{- if and .Values.signals.sourceSecrets (not (or .Values.signals.sources .Values.signals.sourcesFile)) }}
{{- fail "signals.sourceSecrets are mounted for the files signals.sources names: set signals.sources too, or remove them" }}
{{- end }}
{{- if and .Values.autoscaling.enabled (lt (int .Values.autoscaling.maxReplicas) (int .Values.autoscaling.minReplicas)) }}
{{- fail (printf "autoscaling.maxReplicas (%d) must be at least autoscaling.minReplicas (%d)" (int .Values.autoscaling.maxReplicas) (int .Values.autoscaling.minReplicas)) }}
{{- end }}
{{- $max := int (include "preflight-gate.maxReplicas" .) }}
{{- if and (gt $max 1) (not (include "preflight-gate.sharedState" .)) }}
{{- fail (printf "%s without shared state: each replica would keep its own emergency stop, caps, cool-downs, quotas and exception use counts, so a run answered by one replica starts while another holds the emergency stop, and a one-use exception waives a run on each. Set state.redis.url (or state.redis.existingSecret, state.redis.sentinels, state.redis.clusterNodes); steadybit.url does not share them (it is read every syncIntervalSeconds, cool-downs, quotas and exception uses stay per replica). Or run one replica: replicaCount=1, autoscaling.enabled=false" (ternary (printf "autoscaling up to %d replicas" $max) (printf "replicaCount=%d" $max) .Values.autoscaling.enabled)) }}
{{- end }}
{{- if and .Values.ingress.enabled (not .Values.ingress.hosts) }}
{{- fail "ingress.enabled=true needs ingress.hosts: at least one host (the URL Steadybit calls), e.g. --set ingress.hosts[0].host=preflight.example.com" }}
{{- end }}
{{- $needed := add (int .Values.preStopSleepSeconds) (int .Values.config.shutdownTimeoutSeconds) }}
{{- if le (int .Values.terminationGracePeriodSeconds) $needed }}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be longer than preStopSleepSeconds + config.shutdownTimeoutSeconds (%d), or requests in flight are cut off" (int .Values.terminationGracePeriodSeconds) $needed) }}
{{- end }}
{{- end }}
