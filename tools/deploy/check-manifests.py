"""Checks of the rendered Kubernetes manifests that schemas cannot make: what every app's pods must
have (deploy/README.md, "The manifests"), that Prometheus can scrape every pod once and nothing else
reaches the metrics port, that the manifests configure every variable of the README configuration
table, and that the alerts parse, use the apps' own series and have a runbook section.

Usage: python check-manifests.py <rendered.yaml>...   (kustomize build output; run by
validate-manifests.sh in the venv of deploy-tools.sh). Prints one line per failed check and exits 1
when any failed.
"""

import re
import sys
from pathlib import Path

import promql_parser
import yaml

REPO = Path(__file__).resolve().parents[2]
APPS = ("gateway", "conversations", "scheduler", "actions-runner")
GRPC_PORTS = {"conversations": 50051, "scheduler": 50052, "actions-runner": 50053}
METRICS_PORT = 9464
# Variables set per Deployment (or, for SCHEDULER_REPLICA_ID, left to their per-process default),
# never in the shared ConfigMap.
PER_POD = {"PORT", "GRPC_ADDRESS", "GRPC_HEALTH_ADDRESS", "SCHEDULER_REPLICA_ID", "METRICS_PORT"}
# PEM files every app reads; they must come from a Secret mounted read-only.
GRPC_TLS_FILES = ("GRPC_TLS_CERT", "GRPC_TLS_KEY", "GRPC_TLS_CA")
# Seconds between the end of the drain and the kubelet's SIGKILL, at least.
SHUTDOWN_MARGIN_S = 2
DEFAULT_SHUTDOWN_GRACE_MS = 25000

# The series the apps expose (the metrics contract of the monitoring component): alerts may use
# these, their histogram suffixes, the standard process_/nodejs_ ones and Prometheus' own `up`.
APP_SERIES = {
    "cmsg_http_requests_total",
    "cmsg_http_request_duration_seconds",
    "cmsg_grpc_server_requests_total",
    "cmsg_grpc_server_duration_seconds",
    "cmsg_kafka_consumer_lag",
    "cmsg_kafka_handler_duration_seconds",
    "cmsg_outbox_backlog",
    "cmsg_webhook_backlog",
    "cmsg_schedule_firing_lateness_seconds",
    "cmsg_action_duration_seconds",
    "cmsg_mongodb_operation_duration_seconds",
    "cmsg_mongodb_pool_connections",
}
HISTOGRAM_SUFFIXES = ("_bucket", "_count", "_sum")

problems = []


def problem(where, message):
    line = f"{where}: {message}"
    if line not in problems:
        problems.append(line)


def load(paths):
    documents = []
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            documents.extend((path, doc) for doc in yaml.safe_load_all(stream) if doc)
    return documents


def by_kind(documents, kind):
    return {doc["metadata"]["name"]: doc for _, doc in documents if doc["kind"] == kind}


def config_map(documents):
    return by_kind(documents, "ConfigMap").get("cmsg-config", {}).get("data", {})


def env_of(container):
    return {item["name"]: item for item in container.get("env", [])}


def commented_keys(relative_path):
    """Keys written commented out (`  # KEY: value`) in a manifest: left out on purpose."""
    text = (REPO / relative_path).read_text(encoding="utf-8")
    return set(re.findall(r"^  # ([A-Z][A-Z0-9_]+): ", text, re.MULTILINE))


def is_true(value):
    return str(value).lower() in ("true", "1")


def selects(selector, labels):
    if all(labels.get(key) == value for key, value in selector.get("matchLabels", {}).items()):
        return all(
            (labels.get(expr["key"]) in expr["values"]) == (expr["operator"] == "In")
            for expr in selector.get("matchExpressions", [])
        )
    return False


def admits_port(rule, ports_by_name, number):
    """Whether a NetworkPolicy ingress rule lets traffic to the container port `number` through."""
    if not rule.get("ports"):
        return True
    for item in rule["ports"]:
        port = item.get("port")
        if port is None:
            return True
        port = ports_by_name.get(port, port)
        if port == number or (isinstance(port, int) and "endPort" in item and port <= number <= item["endPort"]):
            return True
    return False


def check_metrics_exposure(documents, app, labels, container):
    """The Service's `metrics` port (what the ServiceMonitor scrapes), and the NetworkPolicies around it."""
    ports_by_name = {port.get("name"): port["containerPort"] for port in container["ports"]}
    service = by_kind(documents, "Service").get(app)
    if service:
        where = f"service/{app}"
        if service["metadata"].get("labels", {}).get("app.kubernetes.io/name") != app:
            problem(where, f"label app.kubernetes.io/name is not {app} (the ServiceMonitor's jobLabel, the alerts' job)")
        if not selects({"matchLabels": service["spec"].get("selector", {})}, labels) or not service["spec"].get("selector"):
            problem(where, f"does not select the pods of deployment/{app}")
        metrics = [p for p in service["spec"]["ports"] if p.get("name") == "metrics"]
        if [(p["port"], p.get("targetPort")) for p in metrics] != [(METRICS_PORT, "metrics")]:
            problem(where, f"no port `metrics` {METRICS_PORT} -> targetPort `metrics` (the ServiceMonitor scrapes it)")
        if metrics and service["spec"].get("type", "ClusterIP") != "ClusterIP":
            problem(where, "has the metrics port and is not ClusterIP: it would publish /metrics; give a load balancer a Service of its own")
    traffic_port = ports_by_name.get("http" if app == "gateway" else "grpc")
    rules = [
        rule
        for _, policy in documents
        if policy["kind"] == "NetworkPolicy"
        and "Ingress" in policy["spec"].get("policyTypes", [])
        and selects(policy["spec"]["podSelector"], labels)
        for rule in policy["spec"].get("ingress", [])
    ]
    if not any(admits_port(rule, ports_by_name, METRICS_PORT) for rule in rules):
        problem(f"deployment/{app}", "no NetworkPolicy admits Prometheus to the metrics port")
    for rule in rules:
        if traffic_port and admits_port(rule, ports_by_name, traffic_port) and admits_port(rule, ports_by_name, METRICS_PORT):
            problem(f"deployment/{app}", f"a NetworkPolicy rule admits the same sources to the traffic port {traffic_port} and the metrics port")


def check_scraping(documents):
    """With the monitoring component: each app's Service scraped by exactly one ServiceMonitor
    endpoint, on `metrics` at /metrics, with the job label the alerts expect; no PodMonitor beside
    it (a pod scraped twice doubles every sum)."""
    monitors = [doc for _, doc in documents if doc["kind"] in ("ServiceMonitor", "PodMonitor")]
    if not monitors:
        return
    services = by_kind(documents, "Service")
    deployments = by_kind(documents, "Deployment")
    for app in APPS:
        if app not in services or app not in deployments:
            continue
        service = services[app]
        pod_labels = deployments[app]["spec"]["template"]["metadata"]["labels"]
        port_names = {port.get("name") for port in service["spec"]["ports"]}
        scrapes = []
        for monitor in monitors:
            spec = monitor["spec"]
            if monitor["kind"] == "ServiceMonitor" and selects(spec["selector"], service["metadata"].get("labels", {})):
                scrapes += [(monitor, endpoint) for endpoint in spec.get("endpoints", []) if endpoint.get("port") in port_names or "port" not in endpoint]
            elif monitor["kind"] == "PodMonitor" and selects(spec["selector"], pod_labels):
                scrapes += [(monitor, endpoint) for endpoint in spec.get("podMetricsEndpoints", [])]
        where = f"service/{app}"
        if len(scrapes) != 1:
            problem(where, f"its pods are scraped by {len(scrapes)} monitor endpoints, expected one ServiceMonitor endpoint")
            continue
        [(monitor, endpoint)] = scrapes
        name = f"{monitor['kind'].lower()}/{monitor['metadata']['name']}"
        if monitor["kind"] != "ServiceMonitor" or endpoint.get("port") != "metrics":
            problem(where, f"scraped by {name} other than through a ServiceMonitor endpoint on port `metrics`")
        if endpoint.get("path", "/metrics") != "/metrics":
            problem(name, "path is not /metrics")
        if monitor["spec"].get("jobLabel") != "app.kubernetes.io/name":
            problem(name, "jobLabel is not app.kubernetes.io/name: the job label would not be the app name the alerts use")


def check_probes(where, app, container):
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        if probe not in container:
            problem(where, f"no {probe}")
    if app == "gateway":
        if container.get("livenessProbe", {}).get("httpGet", {}).get("path") != "/healthz":
            problem(where, "liveness is not GET /healthz")
        if container.get("readinessProbe", {}).get("httpGet", {}).get("path") != "/readyz":
            problem(where, "readiness is not GET /readyz")
        return
    # The kubelet's grpc probe speaks neither TLS nor any credential: it needs the plaintext
    # health-only port (GRPC_HEALTH_ADDRESS), never the main port, which requires mutual TLS.
    ports = {port.get("name"): port["containerPort"] for port in container["ports"]}
    if ports.get("grpc") != GRPC_PORTS[app]:
        problem(where, f"no container port `grpc` {GRPC_PORTS[app]}")
    health_port = env_of(container).get("GRPC_HEALTH_ADDRESS", {}).get("value", "").rpartition(":")[2]
    if not health_port.isdigit():
        problem(where, "GRPC_HEALTH_ADDRESS does not give the plaintext health port the grpc probes need")
        return
    if ports.get("grpc-health") != int(health_port):
        problem(where, f"no container port `grpc-health` {health_port} (GRPC_HEALTH_ADDRESS)")
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        if container.get(probe, {}).get("grpc", {}).get("port") != int(health_port):
            problem(where, f"{probe} is not a grpc probe on the health port {health_port} (GRPC_HEALTH_ADDRESS)")


def check_grpc_security(where, pod, container, config):
    secret_volumes = {volume["name"] for volume in pod.get("volumes", []) if "secret" in volume}
    mounts = [m["mountPath"].rstrip("/") + "/" for m in container.get("volumeMounts", []) if m["name"] in secret_volumes and m.get("readOnly") is True]
    for name in GRPC_TLS_FILES:
        path = config.get(name)
        if path and not any(path.startswith(mount) for mount in mounts):
            problem(where, f"{name} {path} is not in a Secret volume mounted read-only")
    if is_true(env_of(container).get("GRPC_ALLOW_INSECURE", {}).get("value")):
        problem(where, "sets GRPC_ALLOW_INSECURE=true: gRPC calls without credentials would be accepted")


def check_security(where, pod, container):
    pod_context = pod.get("securityContext", {})
    if pod_context.get("runAsNonRoot") is not True:
        problem(where, "pod securityContext.runAsNonRoot is not true")
    if pod_context.get("seccompProfile", {}).get("type") != "RuntimeDefault":
        problem(where, "pod seccompProfile is not RuntimeDefault")
    context = container.get("securityContext", {})
    if context.get("readOnlyRootFilesystem") is not True:
        problem(where, "readOnlyRootFilesystem is not true")
    if context.get("allowPrivilegeEscalation") is not False:
        problem(where, "allowPrivilegeEscalation is not false")
    if "ALL" not in context.get("capabilities", {}).get("drop", []):
        problem(where, "capabilities do not drop ALL")
    empty_dirs = {volume["name"] for volume in pod.get("volumes", []) if "emptyDir" in volume}
    if not any(m["mountPath"] == "/tmp" and m["name"] in empty_dirs for m in container.get("volumeMounts", [])):
        problem(where, "no emptyDir mounted at /tmp")


def check_shutdown(where, pod, container, config):
    grace_ms = int(config.get("SHUTDOWN_GRACE_MS", DEFAULT_SHUTDOWN_GRACE_MS))
    command = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pre_stop_s = int(command[1]) if command[:1] == ["sleep"] else 0
    needed = pre_stop_s + grace_ms / 1000 + SHUTDOWN_MARGIN_S
    if pod.get("terminationGracePeriodSeconds", 30) < needed:
        problem(where, f"terminationGracePeriodSeconds is below preStop {pre_stop_s} s + SHUTDOWN_GRACE_MS {grace_ms} ms + {SHUTDOWN_MARGIN_S} s")


def check_deployment(documents, app, deployment, config):
    where = f"deployment/{app}"
    pod = deployment["spec"]["template"]["spec"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    accounts = by_kind(documents, "ServiceAccount")
    if pod.get("serviceAccountName") != app or app not in accounts:
        problem(where, f"does not run as its own ServiceAccount {app}")
    elif accounts[app].get("automountServiceAccountToken") is not False or pod.get("automountServiceAccountToken") is not False:
        problem(where, "mounts a service account token")
    keys = {constraint["topologyKey"] for constraint in pod.get("topologySpreadConstraints", [])}
    if not {"kubernetes.io/hostname", "topology.kubernetes.io/zone"} <= keys:
        problem(where, "is not spread across nodes and zones")
    [container] = pod["containers"]
    for bound in ("requests", "limits"):
        if not {"cpu", "memory"} <= set(container.get("resources", {}).get(bound, {})):
            problem(where, f"no cpu and memory {bound}")
    check_probes(where, app, container)
    check_security(where, pod, container)
    check_shutdown(where, pod, container, config)
    check_grpc_security(where, pod, container, config)
    check_metrics_exposure(documents, app, labels, container)
    env = env_of(container)
    if env.get("METRICS_PORT", {}).get("value") != str(METRICS_PORT):
        problem(where, f"METRICS_PORT is not {METRICS_PORT}")
    if {"name": "metrics", "containerPort": METRICS_PORT} not in [{k: p[k] for k in ("name", "containerPort") if k in p} for p in container["ports"]]:
        problem(where, f"no container port `metrics` {METRICS_PORT}")
    per_pod = {"PORT"} if app == "gateway" else {"GRPC_ADDRESS", "GRPC_HEALTH_ADDRESS"}
    if not per_pod <= set(env):
        problem(where, f"does not set {', '.join(sorted(per_pod - set(env)))}")
    if {"configMapRef": {"name": "cmsg-config"}} not in container.get("envFrom", []):
        problem(where, "does not load the ConfigMap cmsg-config")
    for kind in ("Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "NetworkPolicy"):
        if app not in by_kind(documents, kind):
            problem(where, f"has no {kind} named {app}")
    policies = by_kind(documents, "NetworkPolicy").values()
    for direction in ("Ingress", "Egress"):
        if not any(direction in p["spec"].get("policyTypes", []) and selects(p["spec"]["podSelector"], labels) for p in policies):
            problem(where, f"its pods are not isolated for {direction} by a NetworkPolicy")


ADDRESS_VARIABLES = {"conversations": "CONVERSATIONS_GRPC_ADDRESS", "scheduler": "SCHEDULER_GRPC_ADDRESS", "actions-runner": "ACTIONS_GRPC_ADDRESS"}


def check_grpc_balancing(documents, config):
    """gRPC keeps one connection per client, which a ClusterIP Service pins to one pod: each gRPC
    Service is headless and reached at `dns:///`, so the clients balance over every ready pod, and
    the servers age their connections so that clients resolve again and reach pods added since."""
    services = by_kind(documents, "Service")
    for app, port in GRPC_PORTS.items():
        service = services.get(app)
        if service and service["spec"].get("clusterIP") != "None":
            problem(f"service/{app}", "is not headless (clusterIP: None): its gRPC clients would send every call to one pod")
        expected = f"dns:///{app}:{port}"
        if config.get(ADDRESS_VARIABLES[app]) != expected:
            problem("configmap/cmsg-config", f"{ADDRESS_VARIABLES[app]} is not {expected}")
    if int(config.get("GRPC_MAX_CONNECTION_AGE_MS", "0")) <= 0:
        problem("configmap/cmsg-config", "GRPC_MAX_CONNECTION_AGE_MS is not set: clients would never reach pods added after they connected")


def check_autoscaling(documents, config):
    for name, hpa in by_kind(documents, "HorizontalPodAutoscaler").items():
        metrics = hpa["spec"].get("metrics", [])
        if not any(m["type"] == "Resource" and m["resource"]["name"] == "cpu" for m in metrics):
            problem(f"hpa/{name}", "does not scale on CPU")
        external = [m["external"]["metric"]["name"] for m in metrics if m["type"] == "External"]
        if external and (name != "actions-runner" or external != ["cmsg_kafka_consumer_lag"]):
            problem(f"hpa/{name}", f"unexpected external metrics {external}")
        if name == "actions-runner" and hpa["spec"]["maxReplicas"] > int(config.get("COMMAND_TOPIC_PARTITIONS", 12)):
            problem("hpa/actions-runner", "maxReplicas exceeds the partitions of conversation-commands")


def readme_variables():
    """Every variable named in the first column of the README's configuration table."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1]))
    return names


def check_configuration(documents, config):
    secret_env = set()
    # Key of cmsg-secrets -> whether every reference to it is optional.
    secret_keys = {}
    pod_env = set()
    for deployment in by_kind(documents, "Deployment").values():
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            for item in container.get("env", []):
                ref = item.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    secret_env.add(item["name"])
                    if ref["name"] == "cmsg-secrets":
                        secret_keys[ref["key"]] = secret_keys.get(ref["key"], True) and ref.get("optional", False)
                else:
                    pod_env.add(item["name"])
    documented = readme_variables()
    commented = commented_keys("deploy/k8s/base/configmap.yaml")
    for name in sorted(documented):
        if name in PER_POD or name in config or name in secret_env or name in commented:
            continue
        problem("README configuration table", f"{name} is neither in cmsg-config (or commented out there, left to its default), nor a Secret key reference, nor per pod")
    for name in sorted(set(config) - documented):
        problem("configmap/cmsg-config", f"{name} is not in the README configuration table")
    for name in sorted(set(config) & PER_POD):
        problem("configmap/cmsg-config", f"{name} must differ per pod and cannot be shared")
    if "SCHEDULER_REPLICA_ID" in pod_env:
        problem("deployment/scheduler", "sets SCHEDULER_REPLICA_ID, which must differ per pod (its default does)")
    if is_true(config.get("GRPC_ALLOW_INSECURE")):
        problem("configmap/cmsg-config", "GRPC_ALLOW_INSECURE is true: gRPC calls without credentials would be accepted")
    # The template gives an example value for every required key; an optional key may be shown
    # commented out instead (set only in some setups).
    template = yaml.safe_load((REPO / "deploy/k8s/base/secret.example.yaml").read_text(encoding="utf-8"))
    filled = set(template["stringData"])
    shown = filled | commented_keys("deploy/k8s/base/secret.example.yaml")
    for key, optional in sorted(secret_keys.items()):
        if key not in shown:
            problem("secret.example.yaml", f"{key} is in the Deployments only")
        elif key not in filled and not optional:
            problem("secret.example.yaml", f"{key} is required by a Deployment but only commented out here: give it an example value")
    for key in sorted(shown - set(secret_keys)):
        problem("secret.example.yaml", f"{key} is in the template only")


def series_names(expression):
    """Metric names of every vector selector in a parsed PromQL expression."""
    names = []
    stack = [expression]
    while stack:
        node = stack.pop()
        if type(node).__name__ == "VectorSelector":
            names.append(node.name)
            continue
        for attribute in ("lhs", "rhs", "expr", "param", "vector_selector"):
            child = getattr(node, attribute, None)
            if child is not None:
                stack.append(child)
        stack.extend(getattr(node, "args", None) or [])
    return names


def allowed_series(name):
    base = next((name[: -len(s)] for s in HISTOGRAM_SUFFIXES if name.endswith(s)), name)
    return name in APP_SERIES or base in APP_SERIES or name == "up" or name.startswith(("process_", "nodejs_"))


def runbook_sections():
    text = (REPO / "deploy/README.md").read_text(encoding="utf-8")
    runbook = text.split("\n## Runbook\n", 1)[1].split("\n## ", 1)[0] if "\n## Runbook\n" in text else ""
    return set(re.findall(r"^### (Cmsg\w+)$", runbook, re.MULTILINE))


def check_alerts(documents):
    rules = by_kind(documents, "PrometheusRule")
    if not rules:
        return
    alerts = set()
    for rule_name, rule in rules.items():
        for group in rule["spec"]["groups"]:
            for item in group["rules"]:
                where = f"prometheusrule/{rule_name} {item.get('alert', item.get('record'))}"
                if "alert" in item:
                    alerts.add(item["alert"])
                try:
                    expression = promql_parser.parse(item["expr"])
                except ValueError as error:
                    problem(where, f"expr does not parse: {error}")
                    continue
                for name in series_names(expression):
                    if not allowed_series(name):
                        problem(where, f"uses {name}, which the apps do not expose")
                if "alert" not in item:
                    continue
                if item.get("labels", {}).get("severity") not in ("warning", "critical"):
                    problem(where, "severity is not warning or critical")
                anchor = item.get("annotations", {}).get("runbook_url", "").rpartition("deploy/README.md#")[2]
                if anchor != item["alert"].lower():
                    problem(where, "runbook_url does not point at its section of deploy/README.md")
    sections = runbook_sections()
    for name in sorted(alerts - sections):
        problem("deploy/README.md", f"no runbook section `### {name}`")
    for name in sorted(sections - alerts):
        problem("deploy/README.md", f"runbook section {name} has no alert")


def main(paths):
    documents = load(paths)
    config = config_map(documents)
    deployments = by_kind(documents, "Deployment")
    if sorted(deployments) != sorted(APPS):
        problem("deployments", f"expected {', '.join(APPS)}, found {', '.join(sorted(deployments))}")
    for app, deployment in deployments.items():
        if app in APPS:
            check_deployment(documents, app, deployment, config)
    check_grpc_balancing(documents, config)
    check_autoscaling(documents, config)
    check_configuration(documents, config)
    check_scraping(documents)
    check_alerts(documents)
    for line in problems:
        print(f"ERROR {line}")
    print(f"{'FAILED' if problems else 'OK'}: {len(problems)} problem(s) in {', '.join(paths)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
