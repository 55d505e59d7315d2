"""The validator's error rules: each refusal YuniKorn makes is reported with its exact text, at the offending node."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import dedent
from yk_cli.core.config.go_regexp import go_regexp_compiles
from yk_cli.core.config.model import Limit
from yk_cli.core.diagnostics import Level, Problem
from yk_cli.core.lint.checks import validator, validator_limits, validator_placement, validator_resources
from yk_cli.core.lint.checks import validator_structure as structure
from yk_cli.core.lint.checks.validator_common import go_limit
from yk_cli.load.config import load_config


def errors_of(tmp_path: Path, text: str) -> list[Problem]:
    """The error-level problems yk reports for a queues.yaml snippet."""
    path = tmp_path / "queues.yaml"
    path.write_text(dedent(text))
    return [p for p in load_config(str(path)).problems if p.level == Level.ERROR]


def only(problems: list[Problem], rule: str) -> Problem:
    """The single problem of the list, which must be of the given rule."""
    assert [p.rule for p in problems] == [rule], [(p.rule, p.message) for p in problems]
    return problems[0]


# (rule, failing snippet, YuniKorn's message, line, column, a nearby snippet YuniKorn accepts)
CASES: list[tuple[str, str, str, int, int, str]] = [
    (
        "duplicate-partition",
        """
        partitions:
          - name: DEFAULT
            queues: [{name: root, submitacl: "*"}]
          - name: ""
            queues: [{name: root, submitacl: "*"}]
        """,
        "duplicate partition name found with name default",
        4,
        11,
        """
        partitions:
          - name: DEFAULT
            queues: [{name: root, submitacl: "*"}]
          - name: gpu
            queues: [{name: root, submitacl: "*"}]
        """,
    ),
    (
        "queue-config-not-set",
        """
        partitions:
          - name: default
            nodesortpolicy: {type: binpacking}
        """,
        "queue config is not set",
        2,
        5,
        """
        partitions:
          - name: default
            nodesortpolicy: {type: binpacking}
            queues: []
        """,
    ),
    (
        "root-resources",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                resources:
                  guaranteed: {}
        """,
        "root queue must not have resource limits set",
        7,
        11,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                resources:
                  guaranteed:
        """,
    ),
    (
        "limits-not-equivalent",
        """
        partitions:
          - name: default
            limits:
              - {users: [alice], maxapplications: 1}
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {users: [alice], maxapplications: 2}
        """,
        "partition limits and root queue limits are not equivalent",
        3,
        5,
        """
        partitions:
          - name: default
            limits:
              - {users: [alice], maxapplications: 2}
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {users: [alice], maxapplications: 2}
        """,
    ),
    (
        "acl-too-many-fields",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: " alice bob devs "
        """,
        "multiple spaces found in ACL: 'alice bob devs'",
        5,
        20,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "alice,bob devs"
        """,
    ),
    (
        "limit-empty-users-groups",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - limit: cap
                    maxresources: {memory: 1G, vcore: 2}
                    maxapplications: 3
        """,
        "empty user and group lists defined in limit '{cap [] [] map[memory:1G vcore:2] 3}'",
        7,
        13,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - limit: cap
                    users: ["*"]
                    maxresources: {memory: 1G, vcore: 2}
                    maxapplications: 3
        """,
    ),
    (
        "limit-invalid-user",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice, 9lives]
                    maxapplications: 3
        """,
        "invalid limit user name '9lives' in limit definition",
        7,
        28,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice, "system:serviceaccount:ns/sa#1@corp$"]
                    maxapplications: 3
        """,
    ),
    (
        "limit-duplicate-user",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice]
                    maxapplications: 3
                  - users: [bob, alice]
                    maxapplications: 1
        """,
        "duplicated user name 'alice', already exists",
        9,
        26,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice]
                    maxapplications: 3
                  - users: [bob, Alice]
                    maxapplications: 1
        """,
    ),
    (
        "limit-user-after-wildcard",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: ["*", alice]
                    maxapplications: 3
        """,
        "should not set no wildcard user alice after wildcard user limit",
        7,
        26,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice, "*"]
                    maxapplications: 3
        """,
    ),
    (
        "limit-invalid-group",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - groups: [devs, "ops/eu"]
                    maxapplications: 3
        """,
        "invalid limit group name 'ops/eu' in limit definition",
        7,
        28,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - groups: [devs, "system:ops.eu-1"]
                    maxapplications: 3
        """,
    ),
    (
        "limit-duplicate-group",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - groups: [devs, devs]
                    maxapplications: 3
        """,
        "duplicated group name 'devs', already exists",
        7,
        28,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - groups: [devs, ops]
                    maxapplications: 3
        """,
    ),
    (
        "limit-group-after-wildcard",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - groups: [devs, "*"]
                    maxapplications: 3
                  - groups: [ops]
                    maxapplications: 1
        """,
        "should not set no wildcard group ops after wildcard group limit",
        9,
        22,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - groups: [devs]
                    maxapplications: 3
                  - groups: [ops, "*"]
                    maxapplications: 1
        """,
    ),
    (
        "limit-only-wildcard-group",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice]
                    maxapplications: 3
                  - groups: ["*"]
                    maxapplications: 1
        """,
        "should not specify only one group limit that is using the wildcard. There must be at least one limit "
        "with a group name defined ",
        9,
        22,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - users: [alice]
                    maxapplications: 3
                  - users: ["*"]
                    maxapplications: 1
        """,
    ),
    (
        "limit-max-resources-zero",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - limit: zero
                    users: [alice]
                    maxresources: {memory: "0", vcore: 0m}
        """,
        "MaxResources should be greater than zero in 'zero' limit",
        9,
        13,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - limit: zero
                    users: [alice]
                    maxresources: {memory: "0", vcore: 1m}
        """,
    ),
    (
        "limit-no-values",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - limit: nothing
                    users: [alice]
                    maxapplications: 0
        """,
        "invalid resource combination for limit nothing all resource limits are null",
        7,
        13,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - limit: nothing
                    users: [alice]
                    maxapplications: 1
        """,
    ),
    (
        "limit-max-applications",
        """
        partitions:
          - name: default
            limits:
              - limit: all
                users: ["*"]
                maxapplications: 11
            queues:
              - name: root
                submitacl: "*"
                maxapplications: 10
        """,
        "invalid MaxApplications settings for limit all exceed current the queue MaxApplications",
        6,
        26,
        """
        partitions:
          - name: default
            limits:
              - limit: all
                users: ["*"]
                maxapplications: 10
            queues:
              - name: root
                submitacl: "*"
                maxapplications: 10
        """,
    ),
    (
        "limit-max-resources",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 1Gi}
                    limits:
                      - limit: big
                        users: [alice]
                        maxresources: {memory: 2Gi, vcore: 100}
        """,
        "invalid MaxResources settings for limit big exeecd current the queue MaxResources",
        13,
        17,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 1Gi}
                    limits:
                      - limit: big
                        users: [alice]
                        maxresources: {memory: 1Gi, vcore: 100}
        """,
    ),
    (
        "invalid-queue-name",
        """
        partitions:
          - name: default
            queues:
              - name: team a
                submitacl: "*"
        """,
        "invalid queue name, max 64 characters consisting of alphanumeric characters and '-', '_', '#', '@', '/', "
        "':' allowed",
        4,
        15,
        """
        partitions:
          - name: default
            queues:
              - name: "team:a/b#c@d_e-f"
                submitacl: "*"
        """,
    ),
    (
        "duplicate-queue-name",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    queues:
                      - name: x
                      - name: X
        """,
        "duplicate child name found with name 'X', level 2",
        10,
        23,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    queues:
                      - name: x
                  - name: X
        """,
    ),
    (
        "invalid-quantity",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 1.5Gi}
        """,
        "invalid quantity",
        9,
        29,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 1536Mi}
        """,
    ),
    (
        "guaranteed-over-max",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      guaranteed: {memory: 2G, vcore: 2}
                      max: {memory: 1G}
        """,
        "guaranteed resource map[memory:2000000000 vcore:2000] is larger than maximum resource "
        "map[memory:1000000000] for queue a",
        9,
        15,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      guaranteed: {memory: 1G, vcore: 2}
                      max: {memory: 1G}
        """,
    ),
    (
        "child-max-over-parent",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 4G, vcore: 8}
                    queues:
                      - name: b
                        resources:
                          max: {vcore: 4}
                        queues:
                          - name: c
                            resources:
                              max: {memory: 5G}
        """,
        "max resource of parent map[memory:4000000000 vcore:4000] is smaller than maximum resource "
        "map[memory:5000000000] for queue c",
        17,
        23,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 4G, vcore: 8}
                    queues:
                      - name: b
                        resources:
                          max: {vcore: 4}
                        queues:
                          - name: c
                            resources:
                              max: {memory: 4G, gpu: 1}
        """,
    ),
    (
        "children-guaranteed-over-parent",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      guaranteed: {vcore: 4}
                    queues:
                      - name: b
                        queues:
                          - name: c
                            resources:
                              guaranteed: {vcore: 3}
                          - name: d
                            resources:
                              guaranteed: {vcore: 2}
        """,
        "guaranteed resource of parent map[vcore:4000] is smaller than sum of guaranteed resources map[vcore:5000] "
        "of the children for queue a",
        9,
        15,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      guaranteed: {vcore: 4}
                    queues:
                      - name: b
                        queues:
                          - name: c
                            resources:
                              guaranteed: {vcore: 2}
                          - name: d
                            resources:
                              guaranteed: {vcore: 2, memory: 1G}
        """,
    ),
    (
        "children-guaranteed-over-max",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 3G}
                    queues:
                      - name: c
                        resources:
                          guaranteed: {memory: 2G}
                      - name: d
                        resources:
                          guaranteed: {memory: 2G}
        """,
        "max resource map[memory:3000000000] is smaller than sum of guaranteed resources map[memory:4000000000] "
        "of the children for queue a",
        9,
        15,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 4G}
                    queues:
                      - name: c
                        resources:
                          guaranteed: {memory: 2G}
                      - name: d
                        resources:
                          guaranteed: {memory: 2G}
        """,
    ),
    (
        "invalid-placement-rule-name",
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                parent:
                  name: "fixed:root"
            queues: [{name: root, submitacl: "*"}]
        """,
        "invalid rule name fixed:root, a name must be a valid identifier",
        7,
        17,
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                parent:
                  name: _Fixed_2
            queues: [{name: root, submitacl: "*"}]
        """,
    ),
    (
        "invalid-filter-type",
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                filter: {type: allowed}
            queues: [{name: root, submitacl: "*"}]
        """,
        "invalid rule filter type allowed, filter type  must be either '', allow or deny",
        6,
        24,
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                filter: {type: DENY}
            queues: [{name: root, submitacl: "*"}]
        """,
    ),
    (
        "invalid-filter-list",
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                filter:
                  groups: ["dev(ops"]
            queues: [{name: root, submitacl: "*"}]
        """,
        "invalid rule filter group list is not a proper list or regexp: [dev(ops]",
        7,
        20,
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                filter:
                  groups: ["dev(ops)?"]
            queues: [{name: root, submitacl: "*"}]
        """,
    ),
    (
        "fixed-rule-qualified",
        """
        partitions:
          - name: default
            placementrules:
              - name: fixed
                value: root.a.b
                create: true
                parent:
                  name: FIXED
                  value: root.a
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: a, parent: true}]
        """,
        "illegal fully qualified 'fixed' rule with value root.a.b",
        5,
        16,
        """
        partitions:
          - name: default
            placementrules:
              - name: fixed
                value: b
                create: true
                parent:
                  name: FIXED
                  value: root.a
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: a, parent: true}]
        """,
    ),
    (
        "placement-rule-not-leaf",
        """
        partitions:
          - name: default
            placementrules:
              - name: fixed
                value: root.a
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: a, parent: true}]
        """,
        "placement rule no. #0 (fixed) references a queue (root.a) which is not a leaf",
        5,
        16,
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                parent: {name: fixed, value: root.a}
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: a, parent: true}]
        """,
    ),
    (
        "placement-rule-queue-missing",
        """
        partitions:
          - name: default
            placementrules:
              - name: provided
              - name: fixed
                value: Batch.Nightly
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: batch, parent: true}]
        """,
        "placement rule no. #1 (fixed) references non-existing queues (root.Batch.Nightly) and create is 'false'",
        6,
        16,
        """
        partitions:
          - name: default
            placementrules:
              - name: provided
              - name: fixed
                value: Batch.Nightly
                create: true
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: batch, parent: true}]
        """,
    ),
    (
        "placement-rule-under-leaf",
        """
        partitions:
          - name: default
            placementrules:
              - name: fixed
                value: ns.team
                create: true
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: ns}]
        """,
        "placement rule no. #0 (fixed) references non-existing queues (root.ns.team) which cannot be created "
        "because the last queue (ns) in the hierarchy is a leaf",
        5,
        16,
        """
        partitions:
          - name: default
            placementrules:
              - name: fixed
                value: ns.team
                create: true
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: ns, parent: true}]
        """,
    ),
    (
        "unknown-node-sort-policy",
        """
        partitions:
          - name: default
            nodesortpolicy: {type: Fair}
            queues: [{name: root, submitacl: "*"}]
        """,
        "undefined policy: Fair",
        3,
        28,
        """
        partitions:
          - name: default
            nodesortpolicy: {type: fair}
            queues: [{name: root, submitacl: "*"}]
        """,
    ),
    (
        "negative-resource-weight",
        """
        partitions:
          - name: default
            nodesortpolicy:
              resourceweights: {vcore: 1, memory: -1}
            queues: [{name: root, submitacl: "*"}]
        """,
        "negative resource weight for memory is not allowed",
        4,
        43,
        """
        partitions:
          - name: default
            nodesortpolicy:
              resourceweights: {vcore: 1, memory: 0}
            queues: [{name: root, submitacl: "*"}]
        """,
    ),
    (
        "child-max-applications",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                maxapplications: 5
                queues:
                  - name: a
                    maxapplications: 6
        """,
        "parent maxApplications must be larger than child maxApplications",
        9,
        30,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                maxapplications: 5
                queues:
                  - name: a
                    maxapplications: 5
        """,
    ),
    (
        "max-applications-undefined",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    maxapplications: 5
                    queues:
                      - name: b
                        maxapplications: 0
        """,
        "maxApplications is either undefined or zero, which is not allowed when parent queue's maxApplications is "
        "defined",
        11,
        34,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    queues:
                      - name: b
                        maxapplications: 7
        """,
    ),
    (
        "limit-hierarchy-resources",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {groups: [devs], maxresources: {vcore: 4}}
                  - {groups: ["*"], maxresources: {vcore: 2}}
                queues:
                  - name: a
                    queues:
                      - name: b
                        limits:
                          - {groups: [ops], maxresources: {vcore: 3, memory: 1G}}
        """,
        "group ops max resource map[memory:1000000000 vcore:3000] of queue b is greater than wildcard maximum "
        "resource map[vcore:2000] of immediate or ancestor parent queue",
        14,
        31,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {groups: [devs], maxresources: {vcore: 4}}
                  - {groups: ["*"], maxresources: {vcore: 2}}
                queues:
                  - name: a
                    queues:
                      - name: b
                        limits:
                          - {groups: [devs], maxresources: {vcore: 3, memory: 1G}}
        """,
    ),
    (
        "limit-hierarchy-applications",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {users: [alice], maxapplications: 4}
                queues:
                  - name: a
                    limits:
                      - {users: [alice], maxresources: {memory: 1G}}
        """,
        "user alice max applications 0 of queue a is greater than immediate or ancestor parent max applications 4",
        11,
        26,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {users: [alice], maxapplications: 4}
                queues:
                  - name: a
                    limits:
                      - {users: [alice], maxresources: {memory: 1G}, maxapplications: 4}
        """,
    ),
    (
        "root-name",
        """
        partitions:
          - name: default
            queues:
              - name: Root
                submitacl: "*"
        """,
        "partition cannot be created without root queue",
        4,
        15,
        """
        partitions:
          - name: default
            queues:
              - name: Roots
                submitacl: "*"
        """,
    ),
    (
        "acl-double-space",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "alice  devs"
        """,
        "configured queue creation failed: multiple spaces found in ACL: 'alice  devs'",
        5,
        20,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: " devs"
        """,
    ),
    (
        "childtemplate-invalid-quantity",
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                childtemplate:
                  resources:
                    guaranteed: {vcore: 100000000000000000}
        """,
        "configured queue creation failed: invalid quantity: overflow",
        8,
        33,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: leaf
                    childtemplate:
                      resources:
                        guaranteed: {vcore: 100000000000000000}
        """,
    ),
]


@pytest.mark.parametrize(
    ("rule", "text", "message", "line", "column"), [c[:5] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule_is_reported(tmp_path: Path, rule: str, text: str, message: str, line: int, column: int) -> None:
    problem = only(errors_of(tmp_path, text), rule)
    assert problem.level == Level.ERROR
    assert problem.message == message
    assert problem.span is not None
    assert (problem.span.line, problem.span.column) == (line, column)
    assert problem.hint


@pytest.mark.parametrize("text", [c[5] for c in CASES], ids=[c[0] for c in CASES])
def test_nearby_config_is_accepted(tmp_path: Path, text: str) -> None:
    assert errors_of(tmp_path, text) == []


def test_every_validator_rule_has_a_case() -> None:
    assert {c[0] for c in CASES} == {r.id for r in validator.RULES}


def test_aggregate_holds_every_module_rule_once() -> None:
    modules = (structure, validator_limits, validator_resources, validator_placement)
    assert sorted(r.id for r in validator.RULES) == sorted({r.id for m in modules for r in m.RULES})
    assert all(r.level == Level.ERROR and r.summary and len(r.doc) > 80 for r in validator.RULES)


# ----------------------------------------------------------------------------- subtleties of YuniKorn's validator


def test_root_is_inserted_above_several_top_level_queues(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: a
                submitacl: "*"
              - name: A
        """,
    )
    assert only(problems, "duplicate-queue-name").message == "duplicate child name found with name 'A', level 1"


def test_a_single_top_level_queue_that_is_not_root_gets_a_root_above_it(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: tenants
                submitacl: "*"
                resources:
                  max: {memory: 1G}
        """,
    )
    assert problems == []


def test_a_zero_guarantee_passes_up_the_sum_of_its_children_and_must_hold_it(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      guaranteed: {vcore: 1}
                    queues:
                      - name: b
                        resources:
                          guaranteed: {vcore: 0}
                        queues:
                          - name: c
                            resources:
                              guaranteed: {vcore: 2}
        """,
    )
    assert [p.message for p in problems] == [
        "guaranteed resource of parent map[vcore:1000] is smaller than sum of guaranteed resources map[vcore:2000] "
        "of the children for queue a",
        "guaranteed resource of parent map[vcore:0] is smaller than sum of guaranteed resources map[vcore:2000] "
        "of the children for queue b",
    ]


def test_a_bad_quantity_skips_the_comparisons_that_need_it(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      guaranteed: {memory: 2G}
                      max: {memory: 1G, vcore: 1K}
                    queues:
                      - name: b
                        resources:
                          guaranteed: {memory: 3G, vcore: 1x}
        """,
    )
    assert [(p.rule, p.message, p.span.line) for p in problems if p.span] == [
        ("invalid-quantity", "invalid suffix", 10),
        ("invalid-quantity", "invalid quantity", 14),
    ]


def test_children_guarantees_are_checked_against_the_ancestors_max_too(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    resources:
                      max: {memory: 3G}
                    queues:
                      - name: b
                        queues:
                          - name: c
                            resources:
                              guaranteed: {memory: 2G}
                          - name: d
                            resources:
                              guaranteed: {memory: 2G}
        """,
    )
    assert [(p.rule, p.message[-11:], p.span.line if p.span else 0) for p in problems] == [
        ("children-guaranteed-over-max", "for queue a", 9),
        ("children-guaranteed-over-max", "for queue b", 12),
    ]


def test_limit_hierarchy_carries_limits_through_queues_that_set_other_limits(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {users: [alice, bob], maxapplications: 10}
                queues:
                  - name: a
                    limits:
                      - {users: [alice], maxapplications: 5}
                    queues:
                      - name: b
                        limits:
                          - {users: [bob], maxapplications: 11}
        """,
    )
    assert only(problems, "limit-hierarchy-applications").message == (
        "user bob max applications 11 of queue b is greater than immediate or ancestor parent max applications 10"
    )


def test_partition_limits_are_checked_as_root_limits(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            limits:
              - {users: ["*"], maxresources: {memory: 1G}}
            queues:
              - name: root
                submitacl: "*"
                queues:
                  - name: a
                    limits:
                      - {users: ["*"], maxresources: {memory: 2G}}
        """,
    )
    assert only(problems, "limit-hierarchy-resources").message == (
        "user * max resource map[memory:2000000000] of queue a is greater than immediate or ancestor parent "
        "maximum resource map[memory:1000000000]"
    )


def test_unknown_but_well_formed_rule_names_pass_the_validator(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            placementrules:
              - name: namespace
                create: true
            queues: [{name: root, submitacl: "*"}]
        """,
    )
    assert problems == []


def test_configured_queue_names_are_matched_as_written_by_the_placement_check(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            placementrules:
              - name: fixed
                value: root.Dev
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: Dev}]
        """,
    )
    assert only(problems, "placement-rule-queue-missing").message == (
        "placement rule no. #0 (fixed) references non-existing queues (root.Dev) and create is 'false'"
    )


def test_placement_path_below_a_leaf(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            placementrules:
              - name: user
                create: true
                parent: {name: fixed, value: root.ns.team}
            queues:
              - name: root
                submitacl: "*"
                queues: [{name: ns}]
        """,
    )
    problem = only(problems, "placement-rule-under-leaf")
    assert problem.message == (
        "placement rule no. #0 (fixed->user) references non-existing queues (root.ns.team) which cannot be created "
        "because the last queue (ns) in the hierarchy is a leaf"
    )
    assert problem.span is not None and (problem.span.line, problem.span.column) == (6, 38)


def test_placement_paths_need_the_queues_key(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            placementrules:
              - {name: fixed, value: root.missing}
        """,
    )
    assert [p.rule for p in problems] == ["queue-config-not-set"]


def test_all_zero_limit_is_not_also_reported_as_having_no_values(tmp_path: Path) -> None:
    problems = errors_of(
        tmp_path,
        """
        partitions:
          - name: default
            queues:
              - name: root
                submitacl: "*"
                limits:
                  - {users: [alice], maxresources: {memory: 0}}
        """,
    )
    assert [p.rule for p in problems] == ["limit-max-resources-zero"]


@pytest.mark.parametrize(
    ("pattern", "compiles"),
    [("^dev-.*$", True), ("a{2,1001}", False), ("(?=x)", False), (r"\p{Greek}+", True), ("a++", False), ("[", False)],
)
def test_go_regexp_approximation(pattern: str, compiles: bool) -> None:
    assert go_regexp_compiles(pattern) is compiles


def test_go_limit_prints_like_go() -> None:
    limit = Limit("cap", ("a", "b"), (), {"vcore": "1", "memory": "2G"}, 7, ())
    assert go_limit(limit) == "{cap [a b] [] map[memory:2G vcore:1] 7}"


def test_validate_exit_code_and_text(run_yk, tmp_path: Path) -> None:
    path = tmp_path / "queues.yaml"
    path.write_text(dedent(CASES[0][1]))
    result = run_yk("validate", str(path))
    assert result.exit_code == 1
    assert "duplicate partition name found with name default" in result.stdout
