/* Reading a NetworkX graph's adjacency (G._adj: a dict of dicts of edge-data dicts) into
 * CSR arrays, for nx_gpusp.convert.from_networkx: one pass over the rows in C instead of
 * several Python-level passes (row lengths, heads, their indices, weights). It takes the
 * common case only and answers "not mine" for everything else, which the Python reader
 * in convert.py handles (missing or None weights, bools, numbers other than Python int
 * and float, ints and floats mixed, ints beyond int64).
 *
 *   count_arcs(adj) -> (m, identity)
 *       m: the number of arcs (the rows' lengths summed); identity: whether the node
 *       labels are exactly the ints 0..n-1 in order. None where a row is not a dict.
 *   read_rows(adj, index, weight, indptr, heads, wint, wfloat, multigraph)
 *       -> (kind, edges, loop_edges)
 *       Fills indptr (int64[n + 1]) and heads (int64[m]: a head's position in the node
 *       order; ``index`` maps a label to it, None where the labels are 0..n-1) and,
 *       where ``weight`` is an attribute name, each arc's weight: kind 0 when every
 *       weight is a Python int that fits int64 (into wint, int64[m]), 1 when every one is
 *       a Python float (into wfloat, float64[m]; NaN and infinities are the caller's to
 *       check), 2 when ``weight`` is None (no weight read); -1: not taken (the buffers
 *       are then partly written and meaningless). ``multigraph``: each arc's data is a
 *       dict of parallel edges' data dicts, and its weight their least (every one must
 *       hold the attribute). ``edges``: the arcs, or with ``multigraph`` their parallel
 *       edges, counted; ``loop_edges``: those of self-loops (a NetworkX multigraph's
 *       number_of_edges without its Python-level pass over the degrees).
 * The buffers are writable, C-contiguous objects of the buffer protocol (NumPy arrays).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t items, char kind,
                      const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *fmt = view->format ? view->format : "B";
    if (fmt[0] == '<' || fmt[0] == '=' || fmt[0] == '@') fmt++;
    int ok = view->itemsize == 8 && view->len >= items * 8 &&
             (kind == 'i' ? (fmt[0] == 'q' || fmt[0] == 'l') : fmt[0] == 'd');
    if (!ok) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "_adjacency.read_rows: %s must be a writable "
                     "%s buffer of at least %zd items", name,
                     kind == 'i' ? "int64" : "float64", items);
        return -1;
    }
    return 0;
}

static PyObject *count_arcs(PyObject *self, PyObject *adj) {
    if (!PyDict_CheckExact(adj)) Py_RETURN_NONE;
    Py_ssize_t pos = 0, i = 0;
    long long m = 0;
    int identity = 1;
    PyObject *label, *row;
    while (PyDict_Next(adj, &pos, &label, &row)) {
        if (!PyDict_CheckExact(row)) Py_RETURN_NONE;
        m += PyDict_GET_SIZE(row);
        if (identity) {
            if (!PyLong_CheckExact(label)) {
                identity = 0;
            } else {
                int overflow = 0;
                long long v = PyLong_AsLongLongAndOverflow(label, &overflow);
                if (v == -1 && PyErr_Occurred()) return NULL;
                identity = !overflow && v == i;
            }
        }
        ++i;
    }
    return Py_BuildValue("(LO)", m, identity ? Py_True : Py_False);
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

static PyObject *read_rows(PyObject *self, PyObject *args) {
    PyObject *adj, *index, *weight, *o_indptr, *o_heads, *o_wint, *o_wfloat;
    int multigraph;
    if (!PyArg_ParseTuple(args, "O!OOOOOOp", &PyDict_Type, &adj, &index, &weight, &o_indptr,
                          &o_heads, &o_wint, &o_wfloat, &multigraph))
        return NULL;
    if (index != Py_None && !PyDict_CheckExact(index)) {
        PyErr_SetString(PyExc_TypeError, "_adjacency.read_rows: index must be a dict or None");
        return NULL;
    }
    const long long n = PyDict_GET_SIZE(adj);
    /* zeroed: releasing one that was never filled does nothing */
    Py_buffer b_indptr = {0}, b_heads = {0}, b_wint = {0}, b_wfloat = {0};
    PyObject *result = NULL;
    if (get_buffer(o_indptr, &b_indptr, n + 1, 'i', "indptr") < 0 ||
        get_buffer(o_heads, &b_heads, 0, 'i', "heads") < 0)
        goto release;
    const long long cap = b_heads.len / 8;
    if (get_buffer(o_wint, &b_wint, weight == Py_None ? 0 : cap, 'i', "wint") < 0 ||
        get_buffer(o_wfloat, &b_wfloat, weight == Py_None ? 0 : cap, 'f', "wfloat") < 0)
        goto release;
    long long *indptr = (long long *)b_indptr.buf, *heads = (long long *)b_heads.buf;
    long long *wint = (long long *)b_wint.buf;
    double *wfloat = (double *)b_wfloat.buf;
    int seen = 0;  /* SEEN_INT | SEEN_FLOAT: the kinds of weight met so far */
    long long kind = -1, e = 0, row_index = 0, edges = 0, loop_edges = 0;
    Py_ssize_t pos = 0;
    PyObject *label, *row;
    indptr[0] = 0;
    while (PyDict_Next(adj, &pos, &label, &row)) {
        if (!PyDict_CheckExact(row)) goto done;
        Py_ssize_t rpos = 0;
        PyObject *head, *data;
        while (PyDict_Next(row, &rpos, &head, &data)) {
            if (e >= cap) goto done;
            /* a label's __hash__ / __eq__ may run Python code: keep what it could free */
            Py_INCREF(head);
            Py_INCREF(data);
            const long long h = head_position(head, index, n);
            Py_DECREF(head);
            if (h < 0) {
                Py_DECREF(data);
                if (h == -2) goto release;
                goto done;
            }
            heads[e] = h;
            const Py_ssize_t k = !multigraph ? 1 : PyDict_CheckExact(data) ? PyDict_GET_SIZE(data) : 0;
            edges += k;
            if (h == row_index) loop_edges += k;
            int got = k > 0;
            if (got && weight != Py_None)
                got = multigraph ? keyed_weight(data, weight, &seen, wint + e, wfloat + e)
                                 : edge_weight(data, weight, &seen, wint + e, wfloat + e, 1);
            Py_DECREF(data);
            if (got < 0) goto release;
            if (got == 0) goto done;
            ++e;
        }
        indptr[++row_index] = e;
    }
    if (row_index != n || e != cap) goto done;  /* the dicts changed size, or m was wrong */
    kind = weight == Py_None ? 2 : (seen & SEEN_FLOAT ? 1 : 0);
done:
    result = Py_BuildValue("(LLL)", kind, edges, loop_edges);
release:  /* result NULL: an exception is set */
    PyBuffer_Release(&b_indptr);
    PyBuffer_Release(&b_heads);
    PyBuffer_Release(&b_wint);
    PyBuffer_Release(&b_wfloat);
    return result;
}

static PyMethodDef methods[] = {
    {"count_arcs", count_arcs, METH_O,
     "count_arcs(adj) -> (m, identity), or None where a row is not a dict"},
    {"read_rows", read_rows, METH_VARARGS,
     "read_rows(adj, index, weight, indptr, heads, wint, wfloat, multigraph) -> (kind, edges, "
     "loop_edges); kind 0 int weights, 1 float weights, 2 none read, -1 not taken"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_adjacency",
                                    "NetworkX adjacency -> CSR arrays (nx_gpusp.convert).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__adjacency(void) { return PyModule_Create(&module); }
