import type { Manifest } from './render-chart';

/** The parts of a rendered Deployment the chart tests read. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
export interface Probe {
  httpGet: { path: string; port: string | number };
}
export interface Container {
  name: string;
  image: string;
  env: EnvVar[];
  ports: Array<{ name: string; containerPort: number }>;
  livenessProbe: Probe;
  readinessProbe: Probe;
  lifecycle: { preStop: { exec: { command: string[] } } };
  securityContext: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    runAsNonRoot?: boolean;
    runAsUser?: number;
  };
  volumeMounts: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
}
export interface PodSpec {
  securityContext: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds: number;
  containers: Container[];
  volumes: Array<{ name: string; configMap?: { name: string }; emptyDir?: object }>;
  topologySpreadConstraints?: Array<{ topologyKey: string; labelSelector: { matchLabels: Record<string, string> } }>;
}
export interface DeploymentSpec {
  replicas?: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { annotations?: Record<string, string>; labels: Record<string, string> }; spec: PodSpec };
}

export function deploymentOf(m: Manifest): { spec: DeploymentSpec; pod: PodSpec; container: Container } {
  const spec = m.spec as unknown as DeploymentSpec;
  return { spec, pod: spec.template.spec, container: spec.template.spec.containers[0] };
}

export function envOf(c: Container, name: string): EnvVar | undefined {
  return c.env.find((e) => e.name === name);
}

/** The container's environment as the service would see it, Secret references read from `secrets` (name -> key -> value). */
export function envFrom(vars: EnvVar[], secrets: Record<string, Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const v of vars) {
    const ref = v.valueFrom?.secretKeyRef;
    env[v.name] = ref ? secrets[ref.name]?.[ref.key] : v.value;
  }
  return env;
}
