/* Reading a NetworkX graph's adjacency (G._adj: a dict of dicts of edge-data dicts) into
 * CSR arrays, for nx_gpusp.convert.from_networkx: one pass over the rows in C instead of
 * several Python-level passes (row lengths, heads, their indices, weights). It takes the
 * common case only and answers "not mine" for everything else, which the Python reader
 * in convert.py handles (missing or None weights, bools, numbers other than Python int
 * and float, ints and floats mixed, ints beyond int64).
 *
 *   read_rows(adj, index, weight, indptr, multigraph)
 *       -> (kind, heads, weights, edges, loop_edges), or None where a row is not a dict
 *       Fills indptr (int64[n + 1], n = len(adj)) and returns the heads (a bytearray of
 *       int32: a head's position in the node order; ``index`` maps a label to it, None
 *       where the labels are presumed to be 0..n-1 in order) and, where ``weight`` is
 *       an attribute name, each arc's weight (a bytearray of 8-byte items): kind 0 when
 *       every weight is a Python int that fits int64 (int64 items), 1 when every one is a
 *       Python float (float64 items; NaN and infinities are the caller's to check), 2
 *       when ``weight`` is None (weights None); -1: not taken; -2: index None but the
 *       labels are not 0..n-1 in order (read again with an index). The arrays grow as
 *       the rows are read (the rows' lengths are not counted first). ``multigraph``: each
 *       arc's data is a dict of parallel edges' data dicts, and its weight their least
 *       (every one must hold the attribute). ``edges``: the arcs, or with ``multigraph``
 *       their parallel edges, counted; ``loop_edges``: those of self-loops (a NetworkX
 *       multigraph's number_of_edges without its Python-level pass over the degrees).
 * indptr is a writable, C-contiguous int64 object of the buffer protocol (a NumPy array).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t items, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *fmt = view->format ? view->format : "B";
    if (fmt[0] == '<' || fmt[0] == '=' || fmt[0] == '@') fmt++;
    if (view->itemsize != 8 || view->len < items * 8 || (fmt[0] != 'q' && fmt[0] != 'l')) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "_adjacency.read_rows: %s must be a writable int64 "
                     "buffer of at least %zd items", name, items);
        return -1;
    }
    return 0;
}

/* A head's position: its label itself (identity) or index[label]; -1 if not taken,
 * -2 with an exception set. */
static long long head_position(PyObject *label, PyObject *index, long long n) {
    PyObject *pos = label;
    if (index != Py_None) {
        pos = PyDict_GetItemWithError(index, label);
        if (pos == NULL) return PyErr_Occurred() ? -2 : -1;
    }
    if (!PyLong_CheckExact(pos)) return -1;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(pos, &overflow);
    if (v == -1 && PyErr_Occurred()) return -2;
    return overflow || v < 0 || v >= n ? -1 : v;
}

#define SEEN_INT 1
#define SEEN_FLOAT 2

/* The weight attribute of one edge-data dict into *wi or *wf (store: else compared,
 * and kept where smaller, as Python's min keeps the first of equals): 1 taken, 0 not
 * taken (missing, not a dict, not a Python int within int64 or float, a kind other
 * than the ones seen), -1 with an exception set. */
static int edge_weight(PyObject *attrs, PyObject *weight, int *seen, long long *wi,
                       double *wf, int store) {
    if (!PyDict_CheckExact(attrs)) return 0;
    PyObject *w = PyDict_GetItemWithError(attrs, weight);
    if (w == NULL) return PyErr_Occurred() ? -1 : 0;
    if (PyLong_CheckExact(w)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(w, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (overflow || (*seen & SEEN_FLOAT)) return 0;
        *seen |= SEEN_INT;
        if (store || v < *wi) *wi = v;
        return 1;
    }
    if (PyFloat_CheckExact(w)) {
        if (*seen & SEEN_INT) return 0;
        *seen |= SEEN_FLOAT;
        const double x = PyFloat_AS_DOUBLE(w);
        if (store || x < *wf) *wf = x;
        return 1;
    }
    return 0;
}

/* A multigraph arc: its parallel edges' least weight (NetworkX's multigraph weight),
 * every one of them holding the attribute; as edge_weight otherwise. */
static int keyed_weight(PyObject *keydict, PyObject *weight, int *seen, long long *wi,
                        double *wf) {
    if (!PyDict_CheckExact(keydict) || PyDict_GET_SIZE(keydict) == 0) return 0;
    Py_ssize_t pos = 0;
    PyObject *key, *attrs;
    int first = 1;
    while (PyDict_Next(keydict, &pos, &key, &attrs)) {
        Py_INCREF(attrs);
        const int got = edge_weight(attrs, weight, seen, wi, wf, first);
        Py_DECREF(attrs);
        if (got <= 0) return got;
        first = 0;
    }
    return 1;
}

/* Room for ``items`` items of ``size`` bytes in the bytearray ``ba`` (doubling; a large
 * block's realloc moves no bytes on Linux): 0, or -1 with an exception set. */
static int reserve(PyObject *ba, Py_ssize_t items, Py_ssize_t size, Py_ssize_t *cap) {
    if (items <= *cap) return 0;
    Py_ssize_t want = *cap > 0 ? *cap : 1024;
    while (want < items) want *= 2;
    if (PyByteArray_Resize(ba, want * size) < 0) return -1;
    *cap = want;
    return 0;
}

typedef union { long long i; double f; } weight_slot;

static PyObject *read_rows(PyObject *self, PyObject *args) {
    PyObject *adj, *index, *weight, *o_indptr;
    int multigraph;
    if (!PyArg_ParseTuple(args, "O!OOOp", &PyDict_Type, &adj, &index, &weight, &o_indptr,
                          &multigraph))
        return NULL;
    if (index != Py_None && !PyDict_CheckExact(index)) {
        PyErr_SetString(PyExc_TypeError, "_adjacency.read_rows: index must be a dict or None");
        return NULL;
    }
    const long long n = PyDict_GET_SIZE(adj);
    const int identity = index == Py_None;
    Py_buffer b_indptr = {0};
    PyObject *result = NULL, *heads = NULL, *weights = NULL;
    if (get_buffer(o_indptr, &b_indptr, n + 1, "indptr") < 0) return NULL;
    long long *indptr = (long long *)b_indptr.buf;
    heads = PyByteArray_FromStringAndSize(NULL, 0);
    weights = weight == Py_None ? Py_NewRef(Py_None) : PyByteArray_FromStringAndSize(NULL, 0);
    if (heads == NULL || weights == NULL) goto release;
    /* the arrays start at ~4 arcs a node and double */
    Py_ssize_t cap = 0, wcap = 0, start = 4 * (Py_ssize_t)n + 16;
    if (reserve(heads, start, 4, &cap) < 0 ||
        (weight != Py_None && reserve(weights, start, 8, &wcap) < 0))
        goto release;
    int seen = 0;  /* SEEN_INT | SEEN_FLOAT: the kinds of weight met so far */
    long long kind = -1, e = 0, row_index = 0, edges = 0, loop_edges = 0;
    Py_ssize_t pos = 0;
    PyObject *label, *row;
    indptr[0] = 0;
    if (n > INT32_MAX) goto done;  /* int32 heads */
    while (PyDict_Next(adj, &pos, &label, &row)) {
        if (!PyDict_CheckExact(row)) {
            result = Py_NewRef(Py_None);
            goto release;
        }
        if (identity) {  /* the labels presumed 0..n-1: checked as they come */
            int overflow = 0;
            const long long v = PyLong_CheckExact(label)
                ? PyLong_AsLongLongAndOverflow(label, &overflow) : -1;
            if (v == -1 && PyErr_Occurred()) goto release;
            if (overflow || v != row_index) { kind = -2; goto done; }
        }
        const Py_ssize_t need = e + PyDict_GET_SIZE(row);
        if (reserve(heads, need, 4, &cap) < 0 ||
            (weight != Py_None && reserve(weights, need, 8, &wcap) < 0))
            goto release;
        int *head_at = (int *)PyByteArray_AS_STRING(heads);
        weight_slot *w = weight == Py_None ? NULL : (weight_slot *)PyByteArray_AS_STRING(weights);
        Py_ssize_t rpos = 0;
        PyObject *head, *data;
        while (PyDict_Next(row, &rpos, &head, &data)) {
            if (e >= need) goto done;  /* the row grew while it was read */
            /* a label's __hash__ / __eq__ may run Python code: keep what it could free */
            Py_INCREF(head);
            Py_INCREF(data);
            const long long h = head_position(head, index, n);
            Py_DECREF(head);
            if (h < 0) {
                Py_DECREF(data);
                if (h == -2) goto release;
                if (identity) kind = -2;  /* a head beyond 0..n-1: the labels are not */
                goto done;
            }
            head_at[e] = (int)h;
            const Py_ssize_t k = !multigraph ? 1 : PyDict_CheckExact(data) ? PyDict_GET_SIZE(data) : 0;
            edges += k;
            if (h == row_index) loop_edges += k;
            int got = k > 0;
            if (got && w != NULL)
                got = multigraph ? keyed_weight(data, weight, &seen, &w[e].i, &w[e].f)
                                 : edge_weight(data, weight, &seen, &w[e].i, &w[e].f, 1);
            Py_DECREF(data);
            if (got < 0) goto release;
            if (got == 0) goto done;
            ++e;
        }
        indptr[++row_index] = e;
    }
    if (row_index != n) goto done;  /* the dict changed size while it was read */
    if (PyByteArray_Resize(heads, e * 4) < 0 ||
        (weight != Py_None && PyByteArray_Resize(weights, e * 8) < 0))
        goto release;
    kind = weight == Py_None ? 2 : (seen & SEEN_FLOAT ? 1 : 0);
done:
    result = Py_BuildValue("(LOOLL)", kind, heads, weights, edges, loop_edges);
release:  /* result NULL: an exception is set */
    PyBuffer_Release(&b_indptr);
    Py_XDECREF(heads);
    Py_XDECREF(weights);
    return result;
}

static PyMethodDef methods[] = {
    {"read_rows", read_rows, METH_VARARGS,
     "read_rows(adj, index, weight, indptr, multigraph) -> (kind, heads, weights, edges, "
     "loop_edges), or None; kind 0 int weights, 1 float weights, 2 none read, -1 not "
     "taken, -2 labels not 0..n-1 (read again with an index)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_adjacency",
                                    "NetworkX adjacency -> CSR arrays (nx_gpusp.convert).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__adjacency(void) { return PyModule_Create(&module); }
