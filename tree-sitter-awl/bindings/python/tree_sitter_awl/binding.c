/* Exposes the AWL grammar to Python as a capsule that py-tree-sitter's Language() accepts. */
#include <Python.h>

typedef struct TSLanguage TSLanguage;
TSLanguage *tree_sitter_awl(void);

static PyObject *awl_language(PyObject *self, PyObject *args) {
  (void)self;
  (void)args;
  return PyCapsule_New(tree_sitter_awl(), "tree_sitter.Language", NULL);
}

static PyMethodDef awl_methods[] = {
    {"language", awl_language, METH_NOARGS, "The AWL tree-sitter language, as a capsule."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef awl_module = {
    PyModuleDef_HEAD_INIT, "_binding", NULL, -1, awl_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__binding(void) { return PyModule_Create(&awl_module); }
