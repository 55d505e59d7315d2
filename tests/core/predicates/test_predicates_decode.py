"""Kubernetes JSON -> the predicate model: the API server's validation, its defaults, the matchLabelKeys merge, and
the memoisation."""

from __future__ import annotations

from typing import Any

import pytest

from yk_cli.core.predicates.decode import (
    DecodeProblem,
    decode_label_selector,
    decode_labels,
    decode_namespace,
    decode_node,
    decode_pod_spec,
    format_path,
)
from yk_cli.core.predicates.model import (
    LabelSelector,
    Namespace,
    NodeFacts,
    NodeSelectorTerm,
    PodAffinityTerm,
    PodSpec,
    Requirement,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)
from yk_cli.core.predicates.node_plugins import matches_node_affinity


def problems(spec: Any, labels: dict[str, str] | None = None) -> list[DecodeProblem]:
    return decode_pod_spec(spec, "default", labels or {})[1]


def only(spec: Any, labels: dict[str, str] | None = None) -> DecodeProblem:
    found = problems(spec, labels)
    assert len(found) == 1, found
    return found[0]


def required(*terms: Any) -> dict[str, Any]:
    return {
        "affinity": {
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": list(terms)}}
        }
    }


def spread(**c: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}
    base.update(c)
    return {"topologySpreadConstraints": [{k: v for k, v in base.items() if v is not None}]}


NSR = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", 0)

# ---- what the API server refuses -----------------------------------------------------------------------------------

# (id, pod spec, code, path, message)
POD_PROBLEMS: list[tuple[str, dict[str, Any], str, tuple[str | int, ...], str]] = [
    (
        "nodeSelector key",
        {"nodeSelector": {"bad key!": "x"}},
        "invalid-label-key",
        ("nodeSelector",),
        'nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters',
    ),
    (
        "nodeSelector value",
        {"nodeSelector": {"k": "has space"}},
        "invalid-label-value",
        ("nodeSelector", "k"),
        'nodeSelector.k: Invalid value: "has space": a valid label must be an empty string',
    ),
    (
        "nodeSelector key with two slashes",
        {"nodeSelector": {"a/b/c": "x"}},
        "invalid-label-key",
        ("nodeSelector",),
        "a qualified name must consist of",
    ),
    (
        "nodeSelector key with an upper-case prefix",
        {"nodeSelector": {"A.com/x": "x"}},
        "invalid-label-key",
        ("nodeSelector",),
        "prefix part a lowercase RFC 1123 subdomain",
    ),
    (
        "toleration with empty key but not Exists",
        {"tolerations": [{"value": "x"}]},
        "toleration-empty-key-operator",
        ("tolerations", 0, "operator"),
        'tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means '
        '"match all values and all keys"',
    ),
    (
        "toleration Exists with a value",
        {"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]},
        "toleration-exists-with-value",
        ("tolerations", 0, "operator"),
        "value must be empty when `operator` is 'Exists'",
    ),
    (
        "toleration operator unknown",
        {"tolerations": [{"key": "k", "operator": "Foo"}]},
        "unsupported-operator",
        ("tolerations", 0, "operator"),
        'tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"',
    ),
    (
        "toleration operator Gt (feature gate TaintTolerationComparisonOperators off)",
        {"tolerations": [{"key": "k", "operator": "Gt", "value": "1"}]},
        "unsupported-operator",
        ("tolerations", 0, "operator"),
        'Unsupported value: "Gt": supported values: "Equal", "Exists"',
    ),
    (
        "toleration effect unknown",
        {"tolerations": [{"key": "k", "effect": "NoRun"}]},
        "invalid-taint-effect",
        ("tolerations", 0, "effect"),
        'tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", '
        '"NoExecute"',
    ),
    (
        "tolerationSeconds without NoExecute",
        {"tolerations": [{"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5}]},
        "toleration-seconds-without-noexecute",
        ("tolerations", 0, "effect"),
        "effect must be 'NoExecute' when `tolerationSeconds` is set",
    ),
    (
        "toleration key",
        {"tolerations": [{"key": "-k", "operator": "Exists"}]},
        "invalid-label-key",
        ("tolerations", 0, "key"),
        'tolerations[0].key: Invalid value: "-k"',
    ),
    (
        "toleration value",
        {"tolerations": [{"key": "k", "value": "a b"}]},
        "invalid-label-value",
        ("tolerations", 0, "operator"),
        "a valid label must be an empty string",
    ),
    (
        "zero nodeSelectorTerms",
        required(),
        "no-node-selector-terms",
        NSR[:-1],
        "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: "
        "must have at least one node selector term",
    ),
    (
        "In without values",
        required({"matchExpressions": [{"key": "k", "operator": "In"}]}),
        "invalid-selector-values",
        (*NSR, "matchExpressions", 0, "values"),
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ),
    (
        "NotIn without values",
        required({"matchExpressions": [{"key": "k", "operator": "NotIn", "values": []}]}),
        "invalid-selector-values",
        (*NSR, "matchExpressions", 0, "values"),
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ),
    (
        "Exists with values",
        required({"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["x"]}]}),
        "invalid-selector-values",
        (*NSR, "matchExpressions", 0, "values"),
        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ),
    (
        "DoesNotExist with values",
        required({"matchExpressions": [{"key": "k", "operator": "DoesNotExist", "values": ["x"]}]}),
        "invalid-selector-values",
        (*NSR, "matchExpressions", 0, "values"),
        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ),
    (
        "Gt with two values",
        required({"matchExpressions": [{"key": "k", "operator": "Gt", "values": ["1", "2"]}]}),
        "invalid-selector-values",
        (*NSR, "matchExpressions", 0, "values"),
        "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
    ),
    (
        "Lt without a value",
        required({"matchExpressions": [{"key": "k", "operator": "Lt"}]}),
        "invalid-selector-values",
        (*NSR, "matchExpressions", 0, "values"),
        "must be specified single value when `operator` is 'Lt' or 'Gt'",
    ),
    (
        "node selector operator unknown",
        required({"matchExpressions": [{"key": "k", "operator": "Equals", "values": ["1"]}]}),
        "unsupported-operator",
        (*NSR, "matchExpressions", 0, "operator"),
        'Invalid value: "Equals": not a valid selector operator',
    ),
    (
        "node selector key",
        required({"matchExpressions": [{"key": "bad key", "operator": "Exists"}]}),
        "invalid-label-key",
        (*NSR, "matchExpressions", 0, "key"),
        'matchExpressions[0].key: Invalid value: "bad key"',
    ),
    (
        "matchFields on a key other than metadata.name",
        required({"matchFields": [{"key": "metadata.labels", "operator": "In", "values": ["1"]}]}),
        "invalid-match-field-key",
        (*NSR, "matchFields", 0, "key"),
        'Invalid value: "metadata.labels": not a valid field selector key',
    ),
    (
        "matchFields with two values",
        required({"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a", "b"]}]}),
        "invalid-selector-values",
        (*NSR, "matchFields", 0, "values"),
        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
    ),
    (
        "matchFields with Exists",
        required({"matchFields": [{"key": "metadata.name", "operator": "Exists"}]}),
        "unsupported-operator",
        (*NSR, "matchFields", 0, "operator"),
        "not a valid selector operator",
    ),
    (
        "preferred node affinity weight",
        {
            "affinity": {
                "nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0, "preference": {}}]}
            }
        },
        "invalid-weight",
        ("affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution", 0, "weight"),
        "Invalid value: 0: must be in the range 1-100",
    ),
    (
        "maxSkew 0",
        spread(maxSkew=0),
        "invalid-max-skew",
        ("topologySpreadConstraints", 0, "maxSkew"),
        "Invalid value: 0: must be greater than zero",
    ),
    (
        "maxSkew negative",
        spread(maxSkew=-1),
        "invalid-max-skew",
        ("topologySpreadConstraints", 0, "maxSkew"),
        "must be greater than zero",
    ),
    (
        "minDomains 0",
        spread(minDomains=0),
        "invalid-min-domains",
        ("topologySpreadConstraints", 0, "minDomains"),
        "Invalid value: 0: must be greater than zero",
    ),
    (
        "minDomains with ScheduleAnyway",
        spread(minDomains=2, whenUnsatisfiable="ScheduleAnyway"),
        "min-domains-with-schedule-anyway",
        ("topologySpreadConstraints", 0, "minDomains"),
        "Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
    ),
    (
        "whenUnsatisfiable unknown",
        spread(whenUnsatisfiable="Maybe"),
        "unsupported-when-unsatisfiable",
        ("topologySpreadConstraints", 0, "whenUnsatisfiable"),
        'Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ),
    (
        "whenUnsatisfiable missing",
        spread(whenUnsatisfiable=None),
        "unsupported-when-unsatisfiable",
        ("topologySpreadConstraints", 0, "whenUnsatisfiable"),
        'Unsupported value: ""',
    ),
    (
        "spread topologyKey missing",
        spread(topologyKey=None),
        "missing-topology-key",
        ("topologySpreadConstraints", 0, "topologyKey"),
        "topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
    ),
    (
        "nodeTaintsPolicy unknown",
        spread(nodeTaintsPolicy="Sometimes"),
        "unsupported-policy",
        ("topologySpreadConstraints", 0, "nodeTaintsPolicy"),
        'Unsupported value: "Sometimes": supported values: "Honor", "Ignore"',
    ),
    (
        "spread matchLabelKeys without a labelSelector",
        spread(matchLabelKeys=["app"]),
        "match-label-keys-without-selector",
        ("topologySpreadConstraints", 0, "matchLabelKeys"),
        "Forbidden: must not be specified when labelSelector is not set",
    ),
    (
        "spread matchLabelKeys also in the labelSelector",
        spread(matchLabelKeys=["app"], labelSelector={"matchLabels": {"app": "x"}}),
        "label-key-in-selector",
        ("topologySpreadConstraints", 0, "matchLabelKeys", 0),
        "exists in both matchLabelKeys and labelSelector",
    ),
    (
        "pod affinity topologyKey missing",
        {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {}}]}}},
        "missing-topology-key",
        ("affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "topologyKey"),
        "Required value: can not be empty",
    ),
    (
        "pod anti-affinity label selector operator",
        {
            "affinity": {
                "podAntiAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {
                            "topologyKey": "zone",
                            "labelSelector": {"matchExpressions": [{"key": "a", "operator": "Gt", "values": ["1"]}]},
                        }
                    ]
                }
            }
        },
        "unsupported-operator",
        (
            "affinity",
            "podAntiAffinity",
            "requiredDuringSchedulingIgnoredDuringExecution",
            0,
            "labelSelector",
            "matchExpressions",
            0,
            "operator",
        ),
        "not a valid selector operator",
    ),
    (
        "pod affinity label selector value",
        {
            "affinity": {
                "podAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {
                            "topologyKey": "zone",
                            "labelSelector": {"matchExpressions": [{"key": "a", "operator": "In", "values": ["a b"]}]},
                        }
                    ]
                }
            }
        },
        "invalid-label-value",
        (
            "affinity",
            "podAffinity",
            "requiredDuringSchedulingIgnoredDuringExecution",
            0,
            "labelSelector",
            "matchExpressions",
            0,
            "values",
            0,
        ),
        "a valid label must be an empty string",
    ),
    (
        "pod affinity matchLabelKeys without a labelSelector",
        {
            "affinity": {
                "podAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {"topologyKey": "zone", "matchLabelKeys": ["app"]}
                    ]
                }
            }
        },
        "match-label-keys-without-selector",
        ("affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "matchLabelKeys"),
        "must not be specified when labelSelector is not set",
    ),
    (
        "pod affinity key in matchLabelKeys and mismatchLabelKeys",
        {
            "affinity": {
                "podAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {
                            "topologyKey": "zone",
                            "labelSelector": {},
                            "matchLabelKeys": ["app"],
                            "mismatchLabelKeys": ["app"],
                        }
                    ]
                }
            }
        },
        "label-key-in-match-and-mismatch",
        ("affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "matchLabelKeys", 0),
        "exists in both matchLabelKeys and mismatchLabelKeys",
    ),
    (
        "pod affinity namespace",
        {
            "affinity": {
                "podAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": [
                        {"topologyKey": "zone", "namespaces": ["Bad_NS"]}
                    ]
                }
            }
        },
        "invalid-namespace",
        ("affinity", "podAffinity", "requiredDuringSchedulingIgnoredDuringExecution", 0, "namespaces", 0),
        "a lowercase RFC 1123 label",
    ),
    (
        "hostPort out of range",
        {"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 70000}]}]},
        "invalid-host-port",
        ("containers", 0, "ports", 0, "hostPort"),
        "containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ),
    (
        "hostPort negative",
        {"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": -1}]}]},
        "invalid-host-port",
        ("containers", 0, "ports", 0, "hostPort"),
        "must be between 1 and 65535, inclusive",
    ),
    (
        "protocol unknown",
        {"containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 80, "protocol": "QUIC"}]}]},
        "unsupported-protocol",
        ("containers", 0, "ports", 0, "protocol"),
        'Unsupported value: "QUIC": supported values: "TCP", "UDP", "SCTP"',
    ),
    (
        "shorthand host port 0",
        {"hostPorts": [0]},
        "invalid-host-port",
        ("hostPorts", 0),
        "must be between 1 and 65535, inclusive",
    ),
    (
        "shorthand host port out of range",
        {"hostPorts": [{"port": 65536}]},
        "invalid-host-port",
        ("hostPorts", 0, "port"),
        "must be between 1 and 65535, inclusive",
    ),
    (
        "shorthand protocol unknown",
        {"hostPorts": [{"hostPort": 53, "protocol": "DNS"}]},
        "unsupported-protocol",
        ("hostPorts", 0, "protocol"),
        'Unsupported value: "DNS"',
    ),
    (
        "nodeName not a DNS subdomain",
        {"nodeName": "Node_1"},
        "invalid-node-name",
        ("nodeName",),
        'nodeName: Invalid value: "Node_1"',
    ),
    # wrong JSON types: problems, never exceptions
    (
        "tolerations a string",
        {"tolerations": "all"},
        "wrong-type",
        ("tolerations",),
        'tolerations: Invalid value: "all": must be a list',
    ),
    ("nodeSelector a list", {"nodeSelector": ["a"]}, "wrong-type", ("nodeSelector",), "must be an object"),
    ("toleration a string", {"tolerations": ["k"]}, "wrong-type", ("tolerations", 0), "must be an object"),
    (
        "toleration key a number",
        {"tolerations": [{"key": 5, "operator": "Exists"}]},
        "wrong-type",
        ("tolerations", 0, "key"),
        "must be a string",
    ),
    ("affinity a list", {"affinity": []}, "wrong-type", ("affinity",), "must be an object"),
    (
        "nodeSelectorTerms an object",
        {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": {}}}}},
        "wrong-type",
        NSR[:-1],
        "must be a list",
    ),
    (
        "values a string",
        required({"matchExpressions": [{"key": "k", "operator": "In", "values": "a"}]}),
        "wrong-type",
        (*NSR, "matchExpressions", 0, "values"),
        "must be a list",
    ),
    (
        "hostPort a string",
        {"containers": [{"ports": [{"hostPort": "80"}]}]},
        "wrong-type",
        ("containers", 0, "ports", 0, "hostPort"),
        "must be an integer",
    ),
    ("hostNetwork a string", {"hostNetwork": "yes"}, "wrong-type", ("hostNetwork",), "must be a boolean"),
    ("volumes an object", {"volumes": {"a": 1}}, "wrong-type", ("volumes",), "must be a list"),
]


@pytest.mark.parametrize(
    ("spec", "code", "path", "message"), [c[1:] for c in POD_PROBLEMS], ids=[c[0] for c in POD_PROBLEMS]
)
def test_pod_problem(spec: dict[str, Any], code: str, path: tuple[str | int, ...], message: str) -> None:
    found = problems(spec)
    assert [(p.code, p.path) for p in found] == [(code, path)], found
    assert message in found[0].message
    assert found[0].message.startswith(format_path(path) + ": ")
    assert not found[0].message.startswith("spec.")


def test_maxskew_zero_still_decodes() -> None:
    p, found = decode_pod_spec(spread(maxSkew=0), "default", {})
    assert [x.code for x in found] == ["invalid-max-skew"]
    assert p.topology_spread[0].max_skew == 0


def test_pod_spec_not_a_mapping() -> None:
    p, found = decode_pod_spec("nope", "ns", {"a": "b"})  # type: ignore[arg-type]
    assert [x.code for x in found] == ["wrong-type"]
    assert found[0].path == ()
    assert p == PodSpec(namespace="ns", labels=(("a", "b"),))


def test_several_problems_are_all_reported() -> None:
    found = problems({"tolerations": [{"value": "x"}, {"key": "k", "operator": "Foo"}], "nodeSelector": {"k": "a b"}})
    assert sorted(p.code for p in found) == [
        "invalid-label-value",
        "toleration-empty-key-operator",
        "unsupported-operator",
    ]


def test_valid_input_that_the_api_server_accepts_has_no_problem() -> None:
    # values of node selector requirements are not validated by the API server (labels.NewRequirement refuses
    # them later, and the term then matches nothing), nor is a Gt value checked to be an integer
    spec = required(
        {"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": ["invalid value: ___@#$%^"]}]},
        {"matchExpressions": [{"key": "rack", "operator": "Gt", "values": ["two"]}]},
    )
    p, found = decode_pod_spec(spec, "default", {})
    assert found == []
    assert not matches_node_affinity(p, NodeFacts("n", (("foo", "bar"), ("rack", "3"))))


# ---- nodes ---------------------------------------------------------------------------------------------------------

NODE_PROBLEMS: list[tuple[str, Any, Any, str, tuple[str | int, ...], str]] = [
    (
        "taint without effect",
        None,
        [{"key": "k", "value": "v"}],
        "invalid-taint-effect",
        ("taints", 0, "effect"),
        "taints[0].effect: Required value",
    ),
    (
        "taint with an unknown effect",
        None,
        [{"key": "k", "effect": "NoRun"}],
        "invalid-taint-effect",
        ("taints", 0, "effect"),
        'Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ),
    (
        "duplicate key and effect",
        None,
        [{"key": "k", "value": "v", "effect": "NoSchedule"}, {"key": "k", "value": "w", "effect": "NoSchedule"}],
        "duplicate-taint",
        ("taints", 1),
        "taints must be unique by key and effect pair",
    ),
    (
        "taint key",
        None,
        [{"key": "", "effect": "NoSchedule"}],
        "invalid-label-key",
        ("taints", 0, "key"),
        "name part must be non-empty",
    ),
    (
        "taint value",
        None,
        [{"key": "k", "value": "a b", "effect": "NoSchedule"}],
        "invalid-label-value",
        ("taints", 0, "value"),
        "a valid label",
    ),
    (
        "label value",
        {"k": "has space"},
        None,
        "invalid-label-value",
        ("labels", "k"),
        "a valid label must be an empty string",
    ),
    ("label key", {"-k": "v"}, None, "invalid-label-key", ("labels",), 'labels: Invalid value: "-k"'),
    (
        "label key of 64 characters",
        {"a" * 64: "v"},
        None,
        "invalid-label-key",
        ("labels",),
        "name part must be no more than 63 characters",
    ),
    (
        "label value of 64 characters",
        {"k": "a" * 64},
        None,
        "invalid-label-value",
        ("labels", "k"),
        "must be no more than 63 characters",
    ),
    ("taints not a list", None, {"key": "k"}, "wrong-type", ("taints",), "must be a list"),
    ("labels not an object", ["k"], None, "wrong-type", ("labels",), "must be an object"),
    ("label value a number", {"k": 5}, None, "wrong-type", ("labels", "k"), "must be a string"),
]


@pytest.mark.parametrize(
    ("labels", "taints", "code", "path", "message"), [c[1:] for c in NODE_PROBLEMS], ids=[c[0] for c in NODE_PROBLEMS]
)
def test_node_problem(labels: Any, taints: Any, code: str, path: tuple[str | int, ...], message: str) -> None:
    _, found = decode_node(labels, taints, False, "n")
    assert [(p.code, p.path) for p in found] == [(code, path)], found
    assert message in found[0].message


def test_node_decodes() -> None:
    n, found = decode_node(
        {"zone": "a", "kubernetes.io/hostname": "n1"},
        [{"key": "gpu", "value": "true", "effect": "NoExecute", "timeAdded": "2024-01-01T00:00:00Z"}],
        True,
        "n1",
    )
    assert found == []
    assert n == NodeFacts(
        "n1", (("kubernetes.io/hostname", "n1"), ("zone", "a")), (Taint("gpu", "true", "NoExecute"),), True
    )


def test_taint_without_effect_still_decodes_and_filters_nothing() -> None:
    n, found = decode_node(None, [{"key": "k"}], False, "n")
    assert [p.code for p in found] == ["invalid-taint-effect"]
    assert n.taints == (Taint("k", "", ""),)


@pytest.mark.parametrize(
    "key", ["pool", "node-role.kubernetes.io/control-plane", "example.com/a_b.c", "a" * 63, "A-b_c.D", "1"]
)
def test_valid_label_keys(key: str) -> None:
    assert decode_labels({key: "v"}) == (((key, "v"),), [])


@pytest.mark.parametrize("key", ["", "/a", "a/", "-a", "a" * 64, "A.com/x", "a/b/c", "a b", "a_"])
def test_invalid_label_keys(key: str) -> None:
    _, found = decode_labels({key: "v"})
    assert found and all(p.code == "invalid-label-key" for p in found)


def test_namespace() -> None:
    assert decode_namespace("team-a", {"env": "prod"}) == (Namespace("team-a", (("env", "prod"),)), [])
    ns, found = decode_namespace("Team_A", None)
    assert ns == Namespace("Team_A")
    assert [p.code for p in found] == ["invalid-namespace"]


# ---- defaults ------------------------------------------------------------------------------------------------------


def test_toleration_operator_defaults_to_equal() -> None:
    p, found = decode_pod_spec({"tolerations": [{"key": "k", "value": "v", "effect": "NoSchedule"}]}, "d", {})
    assert found == []
    assert p.tolerations == (Toleration("k", "Equal", "v", "NoSchedule"),)


def test_toleration_seconds() -> None:
    p, found = decode_pod_spec(
        {"tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]}, "d", {}
    )
    assert found == []
    assert p.tolerations[0].toleration_seconds == 300


def test_spread_defaults() -> None:
    p, found = decode_pod_spec(spread(labelSelector={"matchLabels": {"app": "x"}}), "d", {})
    assert found == []
    assert p.topology_spread == (
        TopologySpreadConstraint(
            max_skew=1,
            topology_key="zone",
            when_unsatisfiable="DoNotSchedule",
            label_selector=LabelSelector((("app", "x"),)),
            min_domains=None,
            node_affinity_policy="Honor",
            node_taints_policy="Ignore",
        ),
    )


def test_spread_policies_given() -> None:
    p, _ = decode_pod_spec(spread(nodeAffinityPolicy="Ignore", nodeTaintsPolicy="Honor", minDomains=3), "d", {})
    c = p.topology_spread[0]
    assert (c.node_affinity_policy, c.node_taints_policy, c.min_domains) == ("Ignore", "Honor", 3)


def test_required_node_affinity_absent_empty_and_given() -> None:
    assert decode_pod_spec({}, "d", {})[0].required_node_affinity is None
    assert decode_pod_spec({"affinity": {"nodeAffinity": {}}}, "d", {})[0].required_node_affinity is None
    p, _ = decode_pod_spec(required({}), "d", {})
    assert p.required_node_affinity == (NodeSelectorTerm(),)
    p, _ = decode_pod_spec(
        required(
            {
                "matchExpressions": [{"key": "a", "operator": "In", "values": ["1"]}],
                "matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n"]}],
            }
        ),
        "d",
        {},
    )
    assert p.required_node_affinity == (
        NodeSelectorTerm((Requirement("a", "In", ("1",)),), (Requirement("metadata.name", "NotIn", ("n",)),)),
    )


def test_host_ports() -> None:
    spec = {
        "initContainers": [
            {"name": "init", "ports": [{"containerPort": 1, "hostPort": 7001}]},  # runs to completion: no port held
            {
                "name": "sidecar",
                "restartPolicy": "Always",
                "ports": [{"containerPort": 2, "hostPort": 7002, "protocol": "UDP"}],
            },
        ],
        "containers": [
            {
                "name": "a",
                "ports": [{"containerPort": 80}, {"containerPort": 81, "hostPort": 8081, "hostIP": "10.0.0.1"}],
            },
            {"name": "b", "ports": [{"containerPort": 82, "hostPort": 0}]},
        ],
        "hostPorts": [9000, {"port": 9001, "protocol": "SCTP"}, {"hostPort": 9002, "hostIP": "0.0.0.0"}],
    }
    p, found = decode_pod_spec(spec, "d", {})
    assert found == []
    assert [(h.port, h.protocol, h.host_ip) for h in p.host_ports] == [
        (7002, "UDP", ""),
        (8081, "TCP", "10.0.0.1"),
        (9000, "TCP", ""),
        (9001, "SCTP", ""),
        (9002, "TCP", "0.0.0.0"),
    ]


def test_host_network_makes_container_ports_host_ports() -> None:
    spec = {"hostNetwork": True, "containers": [{"name": "a", "ports": [{"containerPort": 53, "protocol": "UDP"}]}]}
    p, found = decode_pod_spec(spec, "d", {})
    assert found == []
    assert [(h.port, h.protocol) for h in p.host_ports] == [(53, "UDP")]


def test_soft_and_unmodelled() -> None:
    term = {"topologyKey": "zone", "labelSelector": {}}
    spec = {
        "affinity": {
            "nodeAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 5, "preference": {"matchExpressions": [{"key": "a", "operator": "Exists"}]}}
                ]
            },
            "podAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 5, "podAffinityTerm": term}]
            },
            "podAntiAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 5, "podAffinityTerm": term}]
            },
        },
        "topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {}}
        ],
        "volumes": [
            {"name": "data", "persistentVolumeClaim": {"claimName": "c"}},
            {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {}}},
            {"name": "cfg", "configMap": {"name": "x"}},
            {"name": "tmp", "emptyDir": {}},
        ],
        "resourceClaims": [{"name": "gpu", "resourceClaimName": "g"}],
    }
    p, found = decode_pod_spec(spec, "d", {})
    assert found == []
    assert p.soft == (
        "preferred node affinity",
        "preferred pod affinity",
        "preferred pod anti-affinity",
        "topology spread ScheduleAnyway",
    )
    assert p.unmodelled == (
        "VolumeBinding/VolumeZone/NodeVolumeLimits (volume data)",
        "VolumeBinding/VolumeZone/NodeVolumeLimits (volume scratch)",
        "DynamicResources (DRA claim gpu)",
    )
    # preferred terms filter nothing; ScheduleAnyway constraints are kept but do not filter
    assert p.pod_affinity == () and p.pod_anti_affinity == ()
    assert not p.filters


def test_pod_affinity_terms() -> None:
    spec = {
        "affinity": {
            "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {"topologyKey": "zone", "labelSelector": {"matchLabels": {"app": "db"}}, "namespaces": ["data"]},
                ]
            },
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "topologyKey": "kubernetes.io/hostname",
                        "labelSelector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]},
                        "namespaceSelector": {},
                    },
                ]
            },
        }
    }
    p, found = decode_pod_spec(spec, "web", {"app": "web"})
    assert found == []
    assert p.pod_affinity == (PodAffinityTerm("zone", LabelSelector((("app", "db"),)), ("data",)),)
    assert p.pod_anti_affinity == (
        PodAffinityTerm(
            "kubernetes.io/hostname",
            LabelSelector((), (Requirement("app", "Exists"),)),
            namespace_selector=LabelSelector(),
        ),
    )
    assert p.namespace == "web" and p.labels == (("app", "web"),)
    assert p.dynamic and p.filters


# ---- matchLabelKeys / mismatchLabelKeys merged as the API server does ----------------------------------------------


def anti(term: dict[str, Any]) -> dict[str, Any]:
    return {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}}


def test_match_label_keys_merged_into_the_pod_affinity_selector() -> None:
    term = {
        "topologyKey": "zone",
        "labelSelector": {"matchLabels": {"app": "web"}},
        "matchLabelKeys": ["pod-template-hash", "absent"],
        "mismatchLabelKeys": ["tenant"],
    }
    p, found = decode_pod_spec(anti(term), "d", {"app": "web", "pod-template-hash": "abc", "tenant": "t1"})
    assert found == []
    (t,) = p.pod_anti_affinity
    # a key the pod does not carry adds nothing; the keys are kept
    assert t.label_selector == LabelSelector(
        (("app", "web"),),
        (Requirement("pod-template-hash", "In", ("abc",)), Requirement("tenant", "NotIn", ("t1",))),
    )
    assert t.match_label_keys == ("pod-template-hash", "absent")
    assert t.mismatch_label_keys == ("tenant",)


def test_match_label_keys_appended_after_the_selectors_own_expressions() -> None:
    term = {
        "topologyKey": "zone",
        "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["a", "b"]}]},
        "matchLabelKeys": ["rev"],
    }
    p, _ = decode_pod_spec(anti(term), "d", {"rev": "7"})
    assert p.pod_anti_affinity[0].label_selector == LabelSelector(
        (), (Requirement("app", "In", ("a", "b")), Requirement("rev", "In", ("7",)))
    )


def test_match_label_keys_with_a_nil_selector_stay_unmerged() -> None:
    p, found = decode_pod_spec(anti({"topologyKey": "zone", "matchLabelKeys": ["rev"]}), "d", {"rev": "7"})
    assert [x.code for x in found] == ["match-label-keys-without-selector"]
    assert p.pod_anti_affinity[0].label_selector is None  # matches no pod, merged or not


def test_match_label_keys_merged_into_the_spread_selector() -> None:
    p, found = decode_pod_spec(
        spread(labelSelector={"matchLabels": {"app": "web"}}, matchLabelKeys=["pod-template-hash"]),
        "d",
        {"app": "web", "pod-template-hash": "abc"},
    )
    assert found == []
    c = p.topology_spread[0]
    assert c.label_selector == LabelSelector((("app", "web"),), (Requirement("pod-template-hash", "In", ("abc",)),))
    assert c.match_label_keys == ("pod-template-hash",)


def test_merge_depends_on_the_pods_labels() -> None:
    spec = spread(labelSelector={"matchLabels": {"app": "web"}}, matchLabelKeys=["pod-template-hash"])
    a, _ = decode_pod_spec(spec, "d", {"app": "web", "pod-template-hash": "v1"})
    b, _ = decode_pod_spec(spec, "d", {"app": "web", "pod-template-hash": "v2"})
    assert a.topology_spread != b.topology_spread


# ---- memoisation ---------------------------------------------------------------------------------------------------


def test_equal_inputs_give_the_identical_pod_spec() -> None:
    spec = {
        "nodeSelector": {"pool": "gpu"},
        "tolerations": [{"key": "gpu", "operator": "Exists"}],
        "containers": [{"name": "c", "image": "x"}],
    }
    a, _ = decode_pod_spec(spec, "team", {"app": "x", "tier": "1"})
    b, _ = decode_pod_spec(dict(reversed(list(spec.items()))), "team", {"tier": "1", "app": "x"})
    assert a is b
    # keys no predicate reads do not matter
    c, _ = decode_pod_spec(
        {**spec, "containers": [{"name": "other", "image": "y"}], "priority": 5}, "team", {"app": "x", "tier": "1"}
    )
    assert c is a


def test_equal_values_from_different_inputs_are_interned() -> None:
    a, _ = decode_pod_spec({"tolerations": [{"key": "k", "operator": "Equal", "value": "v"}]}, "n", {})
    b, _ = decode_pod_spec({"tolerations": [{"key": "k", "value": "v"}]}, "n", {})
    assert a is b


def test_different_namespace_or_labels_give_different_specs() -> None:
    spec = {"nodeSelector": {"pool": "gpu"}}
    a, _ = decode_pod_spec(spec, "a", {})
    b, _ = decode_pod_spec(spec, "b", {})
    c, _ = decode_pod_spec(spec, "a", {"x": "1"})
    assert a != b and a != c


def test_problems_are_returned_again_from_the_cache() -> None:
    spec = {"tolerations": [{"value": "x"}]}
    first = problems(spec)
    first.clear()  # a caller's list is its own
    assert [p.code for p in problems(spec)] == ["toleration-empty-key-operator"]


def test_unhashable_input_is_decoded_without_the_cache() -> None:
    spec = {"nodeSelector": {1: "a", "b": "c"}}  # mixed key types: json.dumps(sort_keys=True) cannot order them
    p, found = decode_pod_spec(spec, "d", {})
    assert p.node_selector == (("1", "a"), ("b", "c"))
    assert [x.code for x in found] == ["wrong-type"]


def test_label_selector_decoding() -> None:
    assert decode_label_selector(None) == (None, [])
    assert decode_label_selector({}) == (LabelSelector(), [])
    sel, found = decode_label_selector({"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["x"]}]})
    assert sel == LabelSelector((), (Requirement("a", "NotIn", ("x",)),)) and found == []


def test_decode_never_raises_on_junk() -> None:
    assert decode_pod_spec(None, "d", {}) == (PodSpec(namespace="d"), [])  # type: ignore[arg-type]
    junk: list[Any] = [
        5,
        [],
        {
            "affinity": {
                "nodeAffinity": {
                    "requiredDuringSchedulingIgnoredDuringExecution": {
                        "nodeSelectorTerms": [None, 5, {"matchExpressions": [None, "x"]}]
                    }
                }
            }
        },
        {"topologySpreadConstraints": [None, {"maxSkew": "1"}, {"minDomains": True}]},
        {"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [None, {"labelSelector": 5}]}}},
        {"containers": [None, {"ports": "80"}], "initContainers": 3, "hostPorts": [None, "80", {"port": None}]},
        {"volumes": [None, {"persistentVolumeClaim": {}}], "resourceClaims": [3]},
    ]
    for spec in junk:
        p, found = decode_pod_spec(spec, "d", {})
        assert isinstance(p, PodSpec)
        assert found, spec
    n, found = decode_node(5, 5, False, "n")  # type: ignore[arg-type]
    assert isinstance(n, NodeFacts) and found
