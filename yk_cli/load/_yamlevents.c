/* libyaml's event parser as a Python iterator of plain tuples: yk_cli.load._yamlevents.

   The events are libyaml's (the copy in _libyaml/, the one ruamel.yaml.clib ships), unchanged; only their form
   differs from ruamel.yaml.clib's CParser, which makes two Mark objects and an event object (three Python
   __init__ calls) per event. Here an event is one tuple:

       (kind, value, style, anchor, tag, start_line, start_column, start_index, end_line, end_column, end_index)

   kind: STREAM_START .. MAPPING_END below; value: a scalar's text, an alias's anchor, else None; style: a scalar's
   '' (plain), "'", '"', '|' or '>', a collection's True (flow) or False (block) or None, a document start's
   explicit flag, else None; anchor and tag: text or None. Marks are 0-based, as libyaml gives them.

   A syntax error raises Error(kind, context, context_line, context_column, problem, problem_line, problem_column)
   with kind "scanner", "parser" or "reader" (libyaml's problem and context texts). yk_cli/load/yamlreader.py
   composes the events into Nodes; plain() below composes plain data, as yamlreader._plain does. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_libyaml/yaml.h"

enum { STREAM_START = 1, STREAM_END, DOCUMENT_START, DOCUMENT_END, ALIAS, SCALAR, SEQUENCE_START, SEQUENCE_END,
       MAPPING_START, MAPPING_END };

static PyObject *Error;
static PyObject *style_plain, *style_single, *style_double, *style_literal, *style_folded;

typedef struct {
    PyObject_HEAD
    yaml_parser_t parser;
    PyObject *source; /* the bytes or str whose UTF-8 buffer libyaml reads */
    int done;
} EventsObject;

static void events_dealloc(EventsObject *self) {
    yaml_parser_delete(&self->parser);
    Py_XDECREF(self->source);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *events_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *source;
    static char *keywords[] = {"text", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Events", keywords, &source)) return NULL;
    const char *buffer;
    Py_ssize_t length;
    if (PyUnicode_Check(source)) {
        buffer = PyUnicode_AsUTF8AndSize(source, &length); /* ASCII text: its own buffer, no copy */
        if (buffer == NULL) return NULL;
    } else if (PyBytes_Check(source)) {
        buffer = PyBytes_AS_STRING(source);
        length = PyBytes_GET_SIZE(source);
    } else {
        PyErr_SetString(PyExc_TypeError, "Events() takes a str or bytes");
        return NULL;
    }
    EventsObject *self = (EventsObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    if (!yaml_parser_initialize(&self->parser)) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Py_INCREF(source);
    self->source = source;
    self->done = 0;
    yaml_parser_set_input_string(&self->parser, (const unsigned char *)buffer, (size_t)length);
    return (PyObject *)self;
}

static PyObject *text_or_none(const yaml_char_t *text) {
    if (text == NULL) Py_RETURN_NONE;
    return PyUnicode_FromString((const char *)text);
}

static PyObject *raise_error(yaml_parser_t *parser) {
    if (parser->error == YAML_MEMORY_ERROR) return PyErr_NoMemory();
    const char *kind = parser->error == YAML_READER_ERROR    ? "reader"
                       : parser->error == YAML_SCANNER_ERROR ? "scanner"
                                                             : "parser";
    PyObject *args;
    if (parser->error == YAML_READER_ERROR) {
        args = Py_BuildValue("(sOnnsnn)", kind, Py_None, (Py_ssize_t)-1, (Py_ssize_t)-1,
                             parser->problem ? parser->problem : "", (Py_ssize_t)parser->problem_offset,
                             (Py_ssize_t)parser->problem_value);
    } else {
        PyObject *context = text_or_none((const yaml_char_t *)parser->context);
        if (context == NULL) return NULL;
        args = Py_BuildValue("(sNnnsnn)", kind, context, (Py_ssize_t)parser->context_mark.line,
                             (Py_ssize_t)parser->context_mark.column, parser->problem ? parser->problem : "",
                             (Py_ssize_t)parser->problem_mark.line, (Py_ssize_t)parser->problem_mark.column);
    }
    if (args == NULL) return NULL;
    PyErr_SetObject(Error, args);
    Py_DECREF(args);
    return NULL;
}

static PyObject *scalar_style(yaml_scalar_style_t style) {
    PyObject *out;
    switch (style) {
        case YAML_PLAIN_SCALAR_STYLE: out = style_plain; break;
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: out = style_single; break;
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: out = style_double; break;
        case YAML_LITERAL_SCALAR_STYLE: out = style_literal; break;
        case YAML_FOLDED_SCALAR_STYLE: out = style_folded; break;
        default: out = Py_None;
    }
    Py_INCREF(out);
    return out;
}

static PyObject *flow_style(int style, int flow, int block) {
    if (style == flow) Py_RETURN_TRUE;
    if (style == block) Py_RETURN_FALSE;
    Py_RETURN_NONE;
}

static PyObject *events_next(EventsObject *self) {
    if (self->done) return NULL;
    yaml_event_t event;
    if (!yaml_parser_parse(&self->parser, &event)) {
        self->done = 1;
        return raise_error(&self->parser);
    }
    int kind;
    PyObject *value = NULL, *style = NULL, *anchor = NULL, *tag = NULL;
    switch (event.type) {
        case YAML_STREAM_START_EVENT: kind = STREAM_START; break;
        case YAML_STREAM_END_EVENT: kind = STREAM_END; break;
        case YAML_DOCUMENT_START_EVENT:
            kind = DOCUMENT_START;
            style = PyBool_FromLong(!event.data.document_start.implicit);
            break;
        case YAML_DOCUMENT_END_EVENT: kind = DOCUMENT_END; break;
        case YAML_ALIAS_EVENT:
            kind = ALIAS;
            value = text_or_none(event.data.alias.anchor);
            if (value == NULL) goto fail;
            break;
        case YAML_SCALAR_EVENT:
            kind = SCALAR;
            value = PyUnicode_DecodeUTF8((const char *)event.data.scalar.value, (Py_ssize_t)event.data.scalar.length,
                                         "strict");
            if (value == NULL) goto fail;
            style = scalar_style(event.data.scalar.style);
            anchor = text_or_none(event.data.scalar.anchor);
            if (anchor == NULL) goto fail;
            tag = text_or_none(event.data.scalar.tag);
            if (tag == NULL) goto fail;
            break;
        case YAML_SEQUENCE_START_EVENT:
            kind = SEQUENCE_START;
            style = flow_style(event.data.sequence_start.style, YAML_FLOW_SEQUENCE_STYLE, YAML_BLOCK_SEQUENCE_STYLE);
            anchor = text_or_none(event.data.sequence_start.anchor);
            if (anchor == NULL) goto fail;
            tag = text_or_none(event.data.sequence_start.tag);
            if (tag == NULL) goto fail;
            break;
        case YAML_SEQUENCE_END_EVENT: kind = SEQUENCE_END; break;
        case YAML_MAPPING_START_EVENT:
            kind = MAPPING_START;
            style = flow_style(event.data.mapping_start.style, YAML_FLOW_MAPPING_STYLE, YAML_BLOCK_MAPPING_STYLE);
            anchor = text_or_none(event.data.mapping_start.anchor);
            if (anchor == NULL) goto fail;
            tag = text_or_none(event.data.mapping_start.tag);
            if (tag == NULL) goto fail;
            break;
        case YAML_MAPPING_END_EVENT: kind = MAPPING_END; break;
        default:
            yaml_event_delete(&event);
            self->done = 1;
            return NULL; /* YAML_NO_EVENT: the stream is over */
    }
    if (kind == STREAM_END) self->done = 1;
    PyObject *out = PyTuple_New(11);
    if (out == NULL) goto fail;
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(kind));
#define OR_NONE(x) ((x) != NULL ? (x) : (Py_INCREF(Py_None), Py_None))
    PyTuple_SET_ITEM(out, 1, OR_NONE(value));
    PyTuple_SET_ITEM(out, 2, OR_NONE(style));
    PyTuple_SET_ITEM(out, 3, OR_NONE(anchor));
    PyTuple_SET_ITEM(out, 4, OR_NONE(tag));
#undef OR_NONE
    PyTuple_SET_ITEM(out, 5, PyLong_FromSize_t(event.start_mark.line));
    PyTuple_SET_ITEM(out, 6, PyLong_FromSize_t(event.start_mark.column));
    PyTuple_SET_ITEM(out, 7, PyLong_FromSize_t(event.start_mark.index));
    PyTuple_SET_ITEM(out, 8, PyLong_FromSize_t(event.end_mark.line));
    PyTuple_SET_ITEM(out, 9, PyLong_FromSize_t(event.end_mark.column));
    PyTuple_SET_ITEM(out, 10, PyLong_FromSize_t(event.end_mark.index));
    yaml_event_delete(&event);
    for (int i = 5; i < 11; i++) {
        if (PyTuple_GET_ITEM(out, i) == NULL) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
fail:
    Py_XDECREF(value);
    Py_XDECREF(style);
    Py_XDECREF(anchor);
    Py_XDECREF(tag);
    yaml_event_delete(&event);
    self->done = 1;
    return NULL;
}

static PyTypeObject EventsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "yk_cli.load._yamlevents.Events",
    .tp_basicsize = sizeof(EventsObject),
    .tp_dealloc = (destructor)events_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Events(text): libyaml's events of a str or bytes (UTF-8), one tuple each.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)events_next,
    .tp_new = events_new,
};

/* plain(text, resolve, max_depth, adjacent): the only document of a text as plain data (dict, list, str and
   whatever `resolve` makes of a plain scalar's text; keys keep their text), composed here from libyaml's events;
   None for an empty stream. It is yamlreader._plain in C, rule for rule: it raises Declined (the node reader must
   look at the text) for an anchor, a tag, an alias, a repeated key, a collection as a key, a second document, more
   than max_depth flow collections or block indentation levels, and, with `adjacent`, a flow mapping value right
   after its colon; Error for a syntax error. `resolve` is called once per distinct plain scalar text. */

static PyObject *Declined;

typedef struct {
    PyObject *container; /* owned */
    PyObject *key;       /* owned or NULL: the parent's pending key */
    int is_map;
    long flow;
    long column;
} Frame;

static PyObject *decline(const char *why) {
    PyErr_SetString(Declined, why);
    return NULL;
}

static PyObject *plain(PyObject *module, PyObject *args) {
    PyObject *text, *resolve;
    long max_depth;
    int adjacent;
    if (!PyArg_ParseTuple(args, "UOlp:plain", &text, &resolve, &max_depth, &adjacent)) return NULL;
    Py_ssize_t length;
    const char *buffer = PyUnicode_AsUTF8AndSize(text, &length);
    if (buffer == NULL) return NULL;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return PyErr_NoMemory();
    yaml_parser_set_input_string(&parser, (const unsigned char *)buffer, (size_t)length);

    PyObject *values = PyDict_New(); /* plain scalars resolved, by their text */
    PyObject *keys = PyDict_New();   /* one str per distinct key text: keys repeat in every entry of a list */
    Py_ssize_t capacity = 64, depth = 0;
    Frame *stack = PyMem_Malloc(sizeof(Frame) * capacity);
    PyObject *root = NULL, *parent = NULL, *key = NULL, *result = NULL;
    int is_map = 0, expect_key = 0, documents = 0, done = 0;
    long flow = 0, column = -1, indents = 0;
    if (values == NULL || keys == NULL || stack == NULL) {
        PyErr_NoMemory();
        goto finish;
    }
    while (!done) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            raise_error(&parser);
            goto finish;
        }
        int failed = 0;
        switch (event.type) {
            case YAML_SCALAR_EVENT:
            case YAML_SEQUENCE_START_EVENT:
            case YAML_MAPPING_START_EVENT: {
                yaml_char_t *anchor = event.type == YAML_SCALAR_EVENT           ? event.data.scalar.anchor
                                      : event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor
                                                                                : event.data.mapping_start.anchor;
                yaml_char_t *tag = event.type == YAML_SCALAR_EVENT           ? event.data.scalar.tag
                                   : event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.tag
                                                                             : event.data.mapping_start.tag;
                if (anchor != NULL || tag != NULL) {
                    decline("anchor or tag");
                    failed = 1;
                    break;
                }
                if (adjacent && flow && is_map && !expect_key && event.start_mark.index > 0 &&
                    PyUnicode_READ_CHAR(text, (Py_ssize_t)event.start_mark.index - 1) == ':') {
                    decline("a flow value right after its colon");
                    failed = 1;
                    break;
                }
                PyObject *value;
                if (event.type == YAML_SCALAR_EVENT) {
                    PyObject *scalar = PyUnicode_DecodeUTF8((const char *)event.data.scalar.value,
                                                            (Py_ssize_t)event.data.scalar.length, "strict");
                    if (scalar == NULL) {
                        failed = 1;
                        break;
                    }
                    if (is_map && expect_key) { /* a key keeps its text, whatever its style */
                        PyObject *known = PyDict_SetDefault(keys, scalar, scalar);
                        if (known == NULL) {
                            Py_DECREF(scalar);
                            failed = 1;
                            break;
                        }
                        Py_INCREF(known);
                        Py_DECREF(scalar);
                        scalar = known;
                        int found = PyDict_Contains(parent, scalar);
                        if (found != 0) {
                            Py_DECREF(scalar);
                            if (found > 0) decline("repeated key");
                            failed = 1;
                            break;
                        }
                        key = scalar;
                        expect_key = 0;
                        break;
                    }
                    if (event.data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
                        value = scalar;
                    } else {
                        value = PyDict_GetItemWithError(values, scalar);
                        if (value != NULL) {
                            Py_INCREF(value);
                        } else if (!PyErr_Occurred()) {
                            value = PyObject_CallOneArg(resolve, scalar);
                            if (value != NULL && PyDict_SetItem(values, scalar, value) < 0) Py_CLEAR(value);
                        }
                        Py_DECREF(scalar);
                        if (value == NULL) {
                            failed = 1;
                            break;
                        }
                    }
                } else {
                    int is_flow = event.type == YAML_SEQUENCE_START_EVENT
                                      ? event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                                      : event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
                    long pushed = column;
                    if (is_flow) {
                        if (++flow > max_depth) {
                            decline("too deep");
                            failed = 1;
                            break;
                        }
                    } else if ((long)event.start_mark.column > column) {
                        if (++indents > max_depth) {
                            decline("too deep");
                            failed = 1;
                            break;
                        }
                        column = (long)event.start_mark.column;
                    }
                    if (is_map && expect_key) {
                        decline("collection as a key");
                        failed = 1;
                        break;
                    }
                    value = event.type == YAML_MAPPING_START_EVENT ? PyDict_New() : PyList_New(0);
                    if (value == NULL) {
                        failed = 1;
                        break;
                    }
                    if (depth == capacity) {
                        Frame *grown = PyMem_Realloc(stack, sizeof(Frame) * capacity * 2);
                        if (grown == NULL) {
                            Py_DECREF(value);
                            PyErr_NoMemory();
                            failed = 1;
                            break;
                        }
                        stack = grown;
                        capacity *= 2;
                    }
                    /* attach first (the frame keeps the parent and its pending key) */
                    int attached = is_map ? PyDict_SetItem(parent, key, value)
                                   : parent != NULL ? PyList_Append(parent, value)
                                                    : 0;
                    if (attached < 0) {
                        Py_DECREF(value);
                        failed = 1;
                        break;
                    }
                    if (parent == NULL) {
                        root = value;
                        Py_INCREF(root);
                    }
                    stack[depth].container = parent;
                    stack[depth].key = key;
                    stack[depth].is_map = is_map;
                    stack[depth].flow = is_flow ? flow - 1 : flow;
                    stack[depth].column = pushed;
                    depth++;
                    parent = value; /* owned by the frame stack now */
                    key = NULL;
                    is_map = event.type == YAML_MAPPING_START_EVENT;
                    expect_key = 1;
                    break;
                }
                /* a scalar value */
                int stored;
                if (is_map) {
                    stored = PyDict_SetItem(parent, key, value);
                    Py_CLEAR(key);
                    expect_key = 1;
                } else if (parent != NULL) {
                    stored = PyList_Append(parent, value);
                } else {
                    Py_XDECREF(root);
                    root = value;
                    Py_INCREF(root);
                    stored = 0;
                }
                Py_DECREF(value);
                if (stored < 0) failed = 1;
                break;
            }
            case YAML_SEQUENCE_END_EVENT:
            case YAML_MAPPING_END_EVENT: {
                depth--;
                Py_DECREF(parent);
                Py_XDECREF(key);
                parent = stack[depth].container;
                key = stack[depth].key;
                is_map = stack[depth].is_map;
                flow = stack[depth].flow;
                if (stack[depth].column != column) {
                    indents--;
                    column = stack[depth].column;
                }
                expect_key = 1;
                if (is_map) {
                    Py_CLEAR(key); /* the collection was its value */
                }
                break;
            }
            case YAML_ALIAS_EVENT:
                decline("alias");
                failed = 1;
                break;
            case YAML_DOCUMENT_START_EVENT:
                if (++documents > 1) {
                    decline("several documents");
                    failed = 1;
                }
                break;
            case YAML_STREAM_END_EVENT:
            case YAML_NO_EVENT:
                done = 1;
                break;
            default:
                break;
        }
        yaml_event_delete(&event);
        if (failed) goto finish;
    }
    result = root != NULL ? root : Py_None;
    Py_INCREF(result);
finish:
    Py_XDECREF(key);
    if (depth > 0) Py_XDECREF(parent);
    while (depth > 0) {
        depth--;
        Py_XDECREF(stack[depth].key);
        Py_XDECREF(stack[depth].container);
    }
    Py_XDECREF(root);
    Py_XDECREF(values);
    Py_XDECREF(keys);
    PyMem_Free(stack);
    yaml_parser_delete(&parser);
    return result;
}

static PyObject *libyaml_version(PyObject *module, PyObject *unused) {
    return PyUnicode_FromString(yaml_get_version_string());
}

static PyMethodDef methods[] = {
    {"libyaml_version", libyaml_version, METH_NOARGS, "The version of the libyaml copy compiled in."},
    {"plain", plain, METH_VARARGS, "plain(text, resolve, max_depth, adjacent): the only document as plain data."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "yk_cli.load._yamlevents", "libyaml's event parser, events as plain tuples.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__yamlevents(void) {
    if (PyType_Ready(&EventsType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    Error = PyErr_NewException("yk_cli.load._yamlevents.Error", NULL, NULL);
    Declined = PyErr_NewException("yk_cli.load._yamlevents.Declined", NULL, NULL);
    if (Declined == NULL) return NULL;
    Py_INCREF(Declined);
    if (PyModule_AddObject(module, "Declined", Declined) < 0) return NULL;
    style_plain = PyUnicode_InternFromString("");
    style_single = PyUnicode_InternFromString("'");
    style_double = PyUnicode_InternFromString("\"");
    style_literal = PyUnicode_InternFromString("|");
    style_folded = PyUnicode_InternFromString(">");
    if (Error == NULL || style_plain == NULL || style_single == NULL || style_double == NULL ||
        style_literal == NULL || style_folded == NULL)
        return NULL;
    Py_INCREF(Error);
    if (PyModule_AddObject(module, "Error", Error) < 0) return NULL;
    Py_INCREF(&EventsType);
    if (PyModule_AddObject(module, "Events", (PyObject *)&EventsType) < 0) return NULL;
    const char *names[] = {"STREAM_START", "STREAM_END", "DOCUMENT_START", "DOCUMENT_END", "ALIAS", "SCALAR",
                           "SEQUENCE_START", "SEQUENCE_END", "MAPPING_START", "MAPPING_END"};
    for (int i = 0; i < 10; i++)
        if (PyModule_AddIntConstant(module, names[i], i + 1) < 0) return NULL;
    return module;
}
