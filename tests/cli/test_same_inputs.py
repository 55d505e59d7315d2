"""Issue 22, item 11: the same inputs mean the same thing in every command."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT

WORKLOAD = str(ROOT / "samples/workloads/tenants.yaml")
CONFIGMAP_WITHOUT_KEY = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
  namespace: yunikorn
data:
  log.level: INFO
"""
NOTE = "holds no queue config: YuniKorn uses its built-in default queue config"


@pytest.fixture(params=["empty", "configmap"])
def default_config(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    path = tmp_path / "queues.yaml"
    path.write_text("" if request.param == "empty" else CONFIGMAP_WITHOUT_KEY)
    return str(path)


def test_tree_shows_the_builtin_default(run_yk, default_config: str) -> None:
    result = run_yk("tree", default_config)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("root  (partition default)  parent")
    assert NOTE in result.stderr


def test_simulate_and_priorities_run_on_the_builtin_default(run_yk, default_config: str) -> None:
    simulated = run_yk("simulate", default_config, WORKLOAD)
    assert simulated.exit_code == 0, simulated.stderr
    assert "partition default: 1 node, 7 applications, 11 asks" in simulated.stdout
    # the tag rule on namespace places none of the tenant applications (they carry no namespace)
    assert "application system-high is not placed: no placement rule matched: tag (namespace)" in simulated.stderr
    priorities = run_yk("priorities", default_config, WORKLOAD)
    assert priorities.exit_code == 0, priorities.stderr
    assert "QUEUE  PRIORITY  OFFSET" in priorities.stdout


def test_diff_compares_with_the_builtin_default(run_yk, default_config: str) -> None:
    result = run_yk("diff", str(ROOT / "samples/queues/tenants.yaml"), default_config, WORKLOAD, "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert "Partition removed" not in result.stdout
    assert '"removed"' in result.stdout and "root.tenants" in result.stdout


def test_a_configmap_of_another_name_without_the_key_is_still_refused(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text(CONFIGMAP_WITHOUT_KEY.replace("yunikorn-configs", "something-else"))
    result = run_yk("tree", str(path))
    assert result.exit_code == 1
    assert "defines no partition" in result.stderr
