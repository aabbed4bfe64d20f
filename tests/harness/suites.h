/* Every test suite, one line each: X(module).  The runner runs them all on every device. */
#define TEST_SUITES(X) \
    X(error)           \
    X(simplify)        \
    X(copy)            \
    X(copy_plan)       \
    X(context)         \
    X(pod)             \
    X(view)            \
    X(index)           \
    X(manip)           \
    X(getitem)         \
    X(promote)         \
    X(elementwise)     \
    X(expr)            \
    X(complex)         \
    X(accuracy)        \
    X(reduce)          \
    X(sort)            \
    X(sort_rows)       \
    X(search)          \
    X(stats2)          \
    X(memory)          \
    X(cache)           \
    X(build)           \
    X(shape)           \
    X(dtype)           \
    X(array)           \
    X(creation)        \
    X(interface)       \
    X(dlpack)          \
    X(debug)           \
    X(storage)         \
    X(storage_ops)     \
    X(linalg)          \
    X(tiles)           \
    X(utilities)       \
    X(threads)
