// Package deploy holds no code: its tests check the files under deploy/
// and the Dockerfile as well as can be done offline, and run the Slurm
// files on a real one-node cluster where SELFPLAY_REQUIRE_TOOLS asks for
// it (CI).
package deploy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfplay/internal/tooltest"
	"sigs.k8s.io/yaml"
)

// manifest reads a Kubernetes manifest as Kubernetes' own YAML reader
// (sigs.k8s.io/yaml: YAML to JSON) does.
func manifest(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("k8s", name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// at follows a path of keys and list indices.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("%v: no item %d", path, k)
			}
			v = l[k]
		}
	}
	return v
}

// checkScript checks a container's shell script with sh -n.
func checkScript(t *testing.T, name, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-n")
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s: the container's script does not parse: %v\n%s", name, err, out)
	}
}

// The shards Job is a batch/v1 Job in Indexed completion mode with
// completions = parallelism = N, and its command passes the completion
// index to selfplay with -shard k8s/N, on a non-root container; the merge
// Job merges; the volume is a claim.
func TestKubernetesManifests(t *testing.T) {
	j := manifest(t, "shards-job.yaml")
	if at(t, j, "apiVersion") != "batch/v1" || at(t, j, "kind") != "Job" {
		t.Fatalf("shards-job.yaml: %v %v, want batch/v1 Job", at(t, j, "apiVersion"), at(t, j, "kind"))
	}
	if m := at(t, j, "spec", "completionMode"); m != "Indexed" {
		t.Errorf("completionMode %v, want Indexed", m)
	}
	n, p := at(t, j, "spec", "completions"), at(t, j, "spec", "parallelism")
	nf, ok := n.(float64)
	if !ok || n != p || nf < 2 {
		t.Fatalf("completions %v, parallelism %v: want equal, at least 2", n, p)
	}
	c := at(t, j, "spec", "template", "spec", "containers", 0)
	var words []string
	for _, k := range []string{"command", "args"} {
		for _, w := range at(t, c, k).([]any) {
			words = append(words, w.(string))
		}
	}
	script := words[len(words)-1]
	shard := regexp.MustCompile(`-shard k8s/(\d+)`).FindStringSubmatch(script)
	if shard == nil || shard[1] != strconv.FormatFloat(nf, 'f', -1, 64) {
		t.Errorf("the command does not pass -shard k8s/%v: %q", nf, script)
	}
	if !strings.Contains(script, "$JOB_COMPLETION_INDEX") || !strings.Contains(script, "selfplay run ") {
		t.Errorf("the command does not run selfplay with the completion index: %q", script)
	}
	if env, ok := at(t, c, "env").([]any); ok {
		for _, e := range env {
			if at(t, e, "name") == "JOB_COMPLETION_INDEX" {
				t.Error("the manifest sets JOB_COMPLETION_INDEX itself; Kubernetes sets it in an Indexed Job")
			}
		}
	}
	checkScript(t, "shards-job.yaml", script)
	if at(t, j, "spec", "template", "spec", "securityContext", "runAsNonRoot") != true {
		t.Error("the shard pods may run as root")
	}

	m := manifest(t, "merge-job.yaml")
	if at(t, m, "apiVersion") != "batch/v1" || at(t, m, "kind") != "Job" {
		t.Fatalf("merge-job.yaml: %v %v", at(t, m, "apiVersion"), at(t, m, "kind"))
	}
	mc := at(t, m, "spec", "template", "spec", "containers", 0)
	margs := at(t, mc, "args").([]any)
	mscript := margs[len(margs)-1].(string)
	if !strings.Contains(mscript, "selfplay merge -o") || !strings.Contains(mscript, "selfplay report") {
		t.Errorf("the merge Job does not merge and report: %q", mscript)
	}
	checkScript(t, "merge-job.yaml", mscript)
	for _, job := range []map[string]any{j, m} {
		claim := at(t, job, "spec", "template", "spec", "volumes")
		found := false
		for _, v := range claim.([]any) {
			if pvc, ok := v.(map[string]any)["persistentVolumeClaim"]; ok && at(t, pvc, "claimName") == "selfplay-results" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s does not mount the selfplay-results claim", at(t, job, "metadata", "name"))
		}
	}
	if v := manifest(t, "volume.yaml"); at(t, v, "kind") != "PersistentVolumeClaim" || at(t, v, "metadata", "name") != "selfplay-results" {
		t.Errorf("volume.yaml: %v %v", at(t, v, "kind"), at(t, v, "metadata", "name"))
	}
}

// The Dockerfile's build stage runs the go build of the cluster runbook
// (docs/cluster.md), and the image runs as a non-root user.
func TestDockerfileBuildsAsREADME(t *testing.T) {
	runbook, err := os.ReadFile("../docs/cluster.md")
	if err != nil {
		t.Fatal(err)
	}
	build := regexp.MustCompile(`(?m)^(CGO_ENABLED=0 go build .*)$`).FindStringSubmatch(string(runbook))
	if build == nil {
		t.Fatal("docs/cluster.md has no CGO_ENABLED=0 go build command")
	}
	docker, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docker), "\nRUN "+build[1]+"\n") {
		t.Errorf("the Dockerfile does not RUN the build command of docs/cluster.md %q", build[1])
	}
	stages := strings.Split(string(docker), "\nFROM ")
	last := stages[len(stages)-1]
	user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(last)
	if len(stages) < 3 || user == nil || user[1] == "root" || strings.HasPrefix(user[1], "0") {
		t.Errorf("the Dockerfile is not multi-stage with a non-root USER in its last stage")
	}
}

// The Slurm scripts parse, and the array script is what docs/cluster.md says.
func TestSlurmScripts(t *testing.T) {
	for _, f := range []string{"shard.sbatch", "merge.sbatch", "sprt-waves.sh", "ci-cluster.sh", "ci-test.sh"} {
		if out, err := exec.Command("bash", "-n", filepath.Join("slurm", f)).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
	b, err := os.ReadFile("slurm/shard.sbatch")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=0-15", "-shard slurm", "SLURM_CPUS_PER_TASK", "SLURM_TMPDIR"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("shard.sbatch does not say %q", want)
		}
	}
}

// The Slurm files on a real cluster (deploy/slurm/ci-test.sh): run where
// SELFPLAY_REQUIRE_TOOLS includes slurm (CI, as root), which installs
// Debian's slurm-wlm and munge if needed and fails if it cannot.
func TestSlurmCluster(t *testing.T) {
	if !tooltest.Required("slurm") {
		t.Skip("SELFPLAY_REQUIRE_TOOLS does not include slurm (CI runs this test)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "slurm/ci-test.sh")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("slurm/ci-test.sh: %v", err)
	}
}
