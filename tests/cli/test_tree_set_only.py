"""`yk tree --set-only`: only what the file sets on each queue, with its line, in every format tree writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import dedent, run_program
from tests.helpers.golden import check_golden

pytestmark = pytest.mark.usefixtures("in_root")
"""Run from the checkout, so that reports name files by the short relative names of the goldens."""

NAMESPACES = ("samples/workloads/queues/namespaces.yaml", "samples/workloads/namespaces.yaml")
GUARANTEES = ("samples/workloads/queues/guarantees.yaml", "samples/workloads/guarantees.yaml")


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (("tree", NAMESPACES[0], "-w", NAMESPACES[1], "--set-only"), "tree_set-only_namespaces.txt"),
        (("tree", NAMESPACES[0], "--set-only", "--format", "json"), "tree_set-only_namespaces.json"),
        (("tree", NAMESPACES[0], "-w", NAMESPACES[1], "--set-only", "-f", "mermaid"), "tree_set-only_namespaces.mmd"),
        (("tree", GUARANTEES[0], "--set-only"), "tree_set-only_guarantees.txt"),
    ],
)
def test_set_only_goldens(run_yk, args: tuple[str, ...], name: str) -> None:
    result = run_yk(*args)
    assert (result.exit_code, result.stderr) == (0, "")
    check_golden(name, result.stdout)


CONFIG = dedent(
    """
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: '*'
            properties:
              colour: blue
            queues:
              - name: batch
                maxapplications: 5
                properties:
                  priority.offset: "1.5"
                  application.sort.policy: fifo
              - name: web
    """
)


def test_set_only_text_shows_set_values_ignored_keys_and_fallbacks(run_yk, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("q.yaml").write_text(CONFIG)
    result = run_yk("tree", "q.yaml", "--set-only", "-q")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == dedent(
        """
        root  (partition default)  parent  (q.yaml:4)
          colour                     'blue'     set here (q.yaml:7): not a YuniKorn property, ignored
        ├── batch  leaf  (q.yaml:9)
        │     application.sort.policy    fifo       set here (q.yaml:13)
        │     priority.offset            0          YuniKorn's fallback after a bad value '1.5', set here (q.yaml:12)
        │     maxapplications            5          set here (q.yaml:10)
        └── web  leaf  (q.yaml:14)
        """
    )
    full = run_yk("tree", "q.yaml", "-q").stdout
    assert "inherited from root" in full and "default" in full  # what --set-only leaves out


def test_set_only_json_keeps_the_rest_fields_and_narrows_provenance(run_yk, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("q.yaml").write_text(CONFIG)
    full = json.loads(run_yk("tree", "q.yaml", "-f", "json", "-q").stdout)
    root = json.loads(run_yk("tree", "q.yaml", "-f", "json", "-q", "--set-only").stdout)
    assert (root["location"], root["provenance"]) == (
        "q.yaml:4",
        {"colour": {"value": "blue", "source": "set", "origin": "root", "ignored": True, "location": "q.yaml:7"}},
    )
    batch, web = root["children"]
    assert batch["provenance"] == {
        "application.sort.policy": {
            "value": "fifo",
            "source": "set",
            "origin": "root.batch",
            "text": "fifo",
            "location": "q.yaml:13",
        },
        "maxapplications": {"value": 5, "source": "set", "text": "5", "location": "q.yaml:10"},
        "priority.offset": {
            "value": 0,
            "source": "set",
            "origin": "root.batch",
            "text": "1.5",
            "location": "q.yaml:12",
            "fallback": True,
            "note": 'strconv.ParseInt: parsing "1.5": invalid syntax',
        },
    }
    assert (web["location"], web["provenance"]) == ("q.yaml:14", {})
    for key in ("provenance", "location", "children"):
        full.pop(key, None)
        root.pop(key)
    assert root == full  # every REST field as without --set-only


def test_set_only_positions_in_a_configmap_are_the_outer_file_lines(run_yk, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    body = "".join(f"    {line}\n" for line in CONFIG.splitlines())
    Path("cm.yaml").write_text(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: yunikorn-configs}}\ndata:\n  queues.yaml: |\n{body}"
    )
    out = run_yk("tree", "cm.yaml", "--set-only", "-q").stdout
    assert out.splitlines()[0] == "root  (partition default)  parent  (cm.yaml:9)"
    assert out.splitlines()[3].endswith("fifo       set here (cm.yaml:18)")


def test_the_fast_path_takes_set_only(run_yk) -> None:
    args = ("tree", NAMESPACES[0], "-w", NAMESPACES[1], "--set-only")
    assert run_program(*args) == (0, run_yk(*args).stdout, "")
