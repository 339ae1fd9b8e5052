// crd-check validates the Prometheus Operator resources of rendered manifests strictly: each
// PodMonitor, ServiceMonitor and PrometheusRule is decoded into the operator's own Go types with
// unknown fields refused, which is what the API server's strict field validation does against the
// operator's CRDs. The Kubernetes schemas that kubernetes-validate uses do not know these kinds.
// The Go types carry field names and JSON types, not the CRDs' patterns and enums: a duration
// like "30sec" still passes here.
//
// Usage: crd-check < rendered.yaml   (a multi-document YAML stream, e.g. kustomize build output)
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/yaml"
)

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

// newObject answers an empty object of the operator's type for kind, or nil for a kind that is
// not the operator's.
func newObject(apiVersion, kind string) (any, error) {
	if !strings.HasPrefix(apiVersion, "monitoring.coreos.com/") {
		return nil, nil
	}
	if apiVersion != "monitoring.coreos.com/v1" {
		return nil, fmt.Errorf("%s %s: only monitoring.coreos.com/v1 is checked", apiVersion, kind)
	}
	switch kind {
	case "PodMonitor":
		return &monitoringv1.PodMonitor{}, nil
	case "ServiceMonitor":
		return &monitoringv1.ServiceMonitor{}, nil
	case "PrometheusRule":
		return &monitoringv1.PrometheusRule{}, nil
	}
	return nil, fmt.Errorf("%s %s: no check for this kind", apiVersion, kind)
}

func splitDocuments(stream []byte) [][]byte {
	var documents [][]byte
	var current bytes.Buffer
	scanner := bufio.NewScanner(bytes.NewReader(stream))
	scanner.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.TrimRight(line, " ") == "---" {
			documents = append(documents, bytes.Clone(current.Bytes()))
			current.Reset()
			continue
		}
		current.WriteString(line)
		current.WriteByte('\n')
	}
	return append(documents, current.Bytes())
}

func check(document []byte) (string, error) {
	if len(bytes.TrimSpace(document)) == 0 {
		return "", nil
	}
	var meta typeMeta
	if err := yaml.Unmarshal(document, &meta); err != nil {
		return "", err
	}
	object, err := newObject(meta.APIVersion, meta.Kind)
	if err != nil || object == nil {
		return "", err
	}
	name := strings.ToLower(meta.Kind) + "/" + meta.Metadata.Name
	// The document as kubectl sends it: YAML to JSON without a target type, so a number stays a
	// number (yaml.Unmarshal would coerce `interval: 30` into the string field, which the API
	// server refuses). Duplicate keys, unknown fields at any depth and wrong JSON types are errors.
	document, err = yaml.YAMLToJSONStrict(document)
	if err != nil {
		return name, err
	}
	decoder := json.NewDecoder(bytes.NewReader(document))
	decoder.DisallowUnknownFields()
	return name, decoder.Decode(object)
}

func main() {
	stream, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ERROR reading stdin:", err)
		os.Exit(2)
	}
	failed := false
	for _, document := range splitDocuments(stream) {
		name, err := check(document)
		switch {
		case err != nil:
			failed = true
			fmt.Printf("ERROR %s did not validate against the prometheus-operator types: %v\n", name, err)
		case name != "":
			fmt.Printf("INFO %s passed against the prometheus-operator types\n", name)
		}
	}
	if failed {
		os.Exit(1)
	}
}
