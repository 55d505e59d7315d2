"""The loader's rules: problems found while reading a file, before any check runs (YAML, size, kinds, comments)."""

from __future__ import annotations

from yk_cli.core.diagnostics import error, warning

YAML_SYNTAX = error(
    "yaml-syntax",
    "The file is not valid YAML (or not UTF-8 text).",
    "YuniKorn parses queues.yaml with Go's yaml.v3 and refuses text it cannot parse: tabs used for "
    "indentation, broken indentation, unclosed quotes, invalid UTF-8. yk also refuses inputs that would "
    "be dangerous to expand (alias bombs, recursive aliases), and nesting deeper than yaml.v3's own limit "
    "(10,000 flow or indentation levels).",
)

DUPLICATE_KEY = error(
    "duplicate-key",
    "A mapping repeats a key.",
    'yaml.v3 refuses a mapping in which a key appears twice: `mapping key "x" already defined at line N`. '
    "Merge the two entries.",
)

UNKNOWN_FIELD = error(
    "unknown-field",
    "A key that YuniKorn's config structs do not have (decoding is strict and case-sensitive).",
    "YuniKorn decodes the config with KnownFields(true): any key that is not a field of the struct at "
    "that place is a hard error (`field X not found in type configs.QueueConfig`). Keys are lower case: "
    "`maxapplications`, not `maxApplications`. Properties are free-form and never trigger this rule.",
)

WRONG_TYPE = error(
    "wrong-type",
    "A value of the wrong YAML type for its field.",
    "A list where a mapping belongs, a string where a number or a bool belongs, a negative "
    'maxapplications, a quoted `"true"` for a bool: yaml.v3 refuses them with `cannot unmarshal !!str '
    "`x` into bool`. Strings accept any scalar, so unquoted numbers in properties and resources are fine.",
)

CONFIG_TOO_LARGE = error(
    "config-too-large",
    "A queue config larger than yk reads (2 MiB unless `--max-size` says otherwise).",
    "Kubernetes stores at most 1 MiB in a ConfigMap, so a real queue config is far smaller than yk's limit. "
    "A larger file (or a gzip binaryData that unpacks to more) is refused at once, without being parsed, so "
    "that a hostile or generated file cannot tie up a CI runner; `--max-size 16MiB` raises the limit.",
)

NO_QUEUE_CONFIG = warning(
    "no-queue-config",
    "A ConfigMap, Helm values or file holds no queue configuration (or an empty one).",
    "A yunikorn-configs ConfigMap without a queues.yaml key (or <policyGroup>.yaml), an empty queues.yaml "
    "entry or an empty file makes YuniKorn use its built-in default: partition default, root with "
    "submitacl '*', a tag placement rule on namespace. A ConfigMap with another name and no queues.yaml key, "
    "or Helm values whose yunikornDefaults has none, is reported when the file holds no queue config at "
    "all: nothing was checked, so yk does not say `no problems`.",
)

NOT_A_QUEUE_CONFIG = error(
    "not-a-queue-config",
    "The file holds a Kubernetes object that is not a queue config, and nothing yk could check.",
    "yk reads a plain queue config (`partitions:`), a ConfigMap holding queues.yaml (data, or gzip + base64 "
    "binaryData), a `kind: List` of those, a data map, or Helm values with `yunikornDefaults`. A Deployment, "
    "a Pod or any other Kubernetes object given by mistake is reported with what yk saw, so that a wrong "
    "path never passes as `no problems`. A plain queue config that carries apiVersion, kind or metadata "
    "next to `partitions` is refused by YuniKorn's strict decoder instead (`field apiVersion not found in "
    "type configs.SchedulerConfig`, rule unknown-field).",
)

SKIPPED_DOCUMENT = warning(
    "skipped-document",
    "A Kubernetes object beside the queue configs of a file, which yk skipped.",
    "In a file that holds queue configs, any other Kubernetes object (a Deployment in a manifest bundle, "
    "say) is not checked; yk says so, naming its kind and name, so that every document of the file is "
    "accounted for. Keep the queue config in a file of its own to silence it.",
)

UNKNOWN_RULE = warning(
    "unknown-rule",
    "A `# yk: disable=` comment names a rule that does not exist: it silences nothing.",
    "A misspelt rule id in a suppression comment silences nothing, so the warning it was meant for is still "
    "reported (or, worse, a later real warning on that line is not the one you meant to accept). yk reports "
    "every name that is not a rule id, with the closest rule id when there is one. Rule ids are lower case "
    "with dashes; `yk rules` lists them all. Fix: correct the name, or remove it.",
)

IGNORED_DOCUMENT = warning(
    "ignored-document",
    "A second YAML document inside queues.yaml, which YuniKorn never reads.",
    "YuniKorn decodes only the first document of the queue config text; anything after `---` is ignored.",
)

LOADER_RULES = (
    YAML_SYNTAX,
    DUPLICATE_KEY,
    UNKNOWN_FIELD,
    WRONG_TYPE,
    CONFIG_TOO_LARGE,
    NO_QUEUE_CONFIG,
    NOT_A_QUEUE_CONFIG,
    SKIPPED_DOCUMENT,
    UNKNOWN_RULE,
    IGNORED_DOCUMENT,
)
