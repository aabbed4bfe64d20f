/* Fused expressions: the text, parsed once into nodes (include/usmarr/expr.h has the
 * grammar, doc/expressions.md the guide), the canonical form, and the object's life.
 *
 * A recursive-descent parser with Python's precedence.  It runs twice over the text: the
 * first pass only checks and counts (a malformed expression allocates nothing), the
 * second fills exactly as many nodes.  Numbers and the operators between numbers alone
 * are folded while parsing (expr_fold.c), so nodes hold only what the device computes. */
#include "ops_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200
#define NAME_MAX_LENGTH 64


enum tok_type { T_END, T_NUMBER, T_NAME, T_OP };

struct token {
    enum tok_type type;
    const char *start;
    size_t len;
    usmarr_scalar_t value; /* T_NUMBER */
};

/* A parsed value: a node, or a number not yet a node (folded constants), or a reduction
 * (only the whole expression may be one). */
struct pval {
    int node;
    bool constant;
    usmarr_scalar_t value;
    int reduction; /* -1, or the reduction applied to `node` */
    const char *at;
};

struct parser {
    const char *text, *p;
    struct token tok;
    bool build;
    struct usmarr__xnode *nodes;
    int nnodes;
    const char *const *names; /* given names, or NULL */
    size_t nnames;
    const char **seen; /* first-appearance names (build pass, names NULL) */
    size_t *seen_len, nseen;
    int depth;
    int rc;
};

/* ---- errors ------------------------------------------------------------------------------ */

static int fail_at(struct parser *ps, const char *at, int code, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(struct parser *ps, const char *at, int code, const char *format, ...)
{
    if (ps->rc)
        return ps->rc;
    size_t column = (size_t)(at - ps->text) + 1, len = strlen(ps->text);
    size_t from = column > 40 ? column - 40 : 0, to = len - from > 80 ? from + 80 : len;
    char shown[96], message[160];
    size_t n = 0;
    for (size_t i = from; i < to && n + 1 < sizeof shown; i++) {
        unsigned char c = (unsigned char)ps->text[i];
        shown[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    shown[n] = 0;
    va_list ap;
    va_start(ap, format);
    vsnprintf(message, sizeof message, format, ap);
    va_end(ap);
    ps->rc = usmarr__fail(code, "expression \"%s%s%s\" column %zu: %s", from ? "..." : "", shown,
                          to < len ? "..." : "", column, message);
    return ps->rc;
}

/* The current token as text for messages: 'x', or "the end". */
static const char *found(const struct parser *ps, char *buf, size_t size)
{
    if (ps->tok.type == T_END)
        return "the end";
    size_t n = ps->tok.len < 24 ? ps->tok.len : 24;
    snprintf(buf, size, "'%.*s%s'", (int)n, ps->tok.start, ps->tok.len > n ? "..." : "");
    return buf;
}

static int expected(struct parser *ps, const char *what)
{
    char buf[40];
    return fail_at(ps, ps->tok.start, USMARR_ERROR_PARSE, "expected %s, found %s", what, found(ps, buf, sizeof buf));
}

/* ---- the lexer --------------------------------------------------------------------------- */

static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static int lex_number(struct parser *ps, const char *s)
{
    const char *q = s;
    char digits[80];
    size_t n = 0;
    int base = 10;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X' || q[1] == 'o' || q[1] == 'O' || q[1] == 'b' || q[1] == 'B')) {
        base = q[1] == 'x' || q[1] == 'X' ? 16 : q[1] == 'o' || q[1] == 'O' ? 8 : 2;
        q += 2;
    }
    bool is_float = false;
    for (; word_char(*q) || *q == '.' || ((*q == '+' || *q == '-') && base == 10 && (q[-1] == 'e' || q[-1] == 'E'));
         q++) {
        if (*q == '_')
            continue;
        if (base == 10 && (*q == '.' || *q == 'e' || *q == 'E'))
            is_float = true;
        if (n + 1 >= sizeof digits)
            return fail_at(ps, s, USMARR_ERROR_PARSE, "a number longer than %zu characters", sizeof digits - 2);
        digits[n++] = *q;
    }
    digits[n] = 0;
    bool imaginary = n > 0 && (digits[n - 1] == 'j' || digits[n - 1] == 'J') && base == 10;
    if (imaginary)
        digits[--n] = 0;
    ps->tok.type = T_NUMBER;
    ps->tok.start = s;
    ps->tok.len = (size_t)(q - s);
    ps->p = q;
    char *end = NULL;
    if (is_float || imaginary) {
        double v = strtod(digits, &end);
        if (n == 0 || *end)
            return fail_at(ps, s, USMARR_ERROR_PARSE, "malformed number '%.*s'", (int)ps->tok.len, s);
        ps->tok.value = imaginary ? usmarr_scalar_complex(0.0, v) : usmarr_scalar_float(v);
        return 0;
    }
    if (n == 0)
        return fail_at(ps, s, USMARR_ERROR_PARSE, "malformed number '%.*s'", (int)ps->tok.len, s);
    if (base == 10 && digits[0] == '0' && strspn(digits, "0") != n)
        return fail_at(ps, s, USMARR_ERROR_PARSE, "leading zeros in '%.*s' (write 0o for octal)", (int)ps->tok.len, s);
    uint64_t v = 0;
    for (const char *d = digits; *d; d++) {
        int k = isdigit((unsigned char)*d) ? *d - '0' : isalpha((unsigned char)*d) ? tolower(*d) - 'a' + 10 : 99;
        if (k >= base)
            return fail_at(ps, s, USMARR_ERROR_PARSE, "malformed number '%.*s'", (int)ps->tok.len, s);
        if (v > (UINT64_MAX - (uint64_t)k) / (uint64_t)base)
            return fail_at(ps, s, USMARR_ERROR_PARSE, "the integer '%.*s' does not fit in 64 bits", (int)ps->tok.len, s);
        v = v * (uint64_t)base + (uint64_t)k;
    }
    ps->tok.value = v > INT64_MAX ? usmarr_scalar_uint(v) : usmarr_scalar_int((int64_t)v);
    return 0;
}

static int next(struct parser *ps)
{
    if (ps->rc)
        return ps->rc;
    const char *s = ps->p;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    memset(&ps->tok, 0, sizeof ps->tok);
    ps->tok.start = s;
    if (!*s) {
        ps->tok.type = T_END;
        ps->p = s;
        return 0;
    }
    if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1])))
        return lex_number(ps, s);
    if (isalpha((unsigned char)*s) || *s == '_') {
        const char *q = s;
        while (word_char(*q))
            q++;
        ps->tok.type = T_NAME;
        ps->tok.len = (size_t)(q - s);
        ps->p = q;
        return 0;
    }
    static const char *const two[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        if (s[0] == two[i][0] && s[1] == two[i][1]) {
            ps->tok.type = T_OP;
            ps->tok.len = 2;
            ps->p = s + 2;
            return 0;
        }
    if (strchr("+-*/%~!&|^<>?:(),", *s)) {
        ps->tok.type = T_OP;
        ps->tok.len = 1;
        ps->p = s + 1;
        return 0;
    }
    return fail_at(ps, s, USMARR_ERROR_PARSE, "unexpected character '%c'", isprint((unsigned char)*s) ? *s : '?');
}

static bool is(const struct parser *ps, const char *text)
{
    return (ps->tok.type == T_OP || ps->tok.type == T_NAME) && ps->tok.len == strlen(text) &&
           !strncmp(ps->tok.start, text, ps->tok.len);
}

/* ---- nodes --------------------------------------------------------------------------------- */

static int add_node(struct parser *ps, const struct usmarr__xnode *n)
{
    if (ps->build)
        ps->nodes[ps->nnodes] = *n;
    return ps->nnodes++;
}

static int column_of(const struct parser *ps, const char *at) { return (int)(at - ps->text) + 1; }

/* The node of `v`: a number becomes a literal node here. */
static int materialize(struct parser *ps, struct pval *v)
{
    if (v->reduction >= 0)
        return fail_at(ps, v->at, USMARR_ERROR_PARSE, "a reduction (%s) may only be the whole expression",
                       usmarr__reduce_name(v->reduction));
    if (v->constant) {
        struct usmarr__xnode n = {.kind = USMARR__X_LITERAL, .column = column_of(ps, v->at), .value = v->value};
        v->node = add_node(ps, &n);
        v->constant = false;
    }
    return 0;
}

static struct pval value_at(const char *at)
{
    struct pval v = {.node = -1, .reduction = -1, .at = at};
    return v;
}

/* A call of elementwise function `op`; an operator over numbers alone is folded. */
static struct pval call(struct parser *ps, int op, struct pval *args, int nargs, const char *at, bool from_operator)
{
    struct pval r = value_at(at);
    bool all_weak = from_operator;
    for (int i = 0; i < nargs; i++)
        all_weak = all_weak && args[i].constant && args[i].value.dtype < 0 && args[i].reduction < 0;
    if (all_weak) {
        usmarr_scalar_t vals[3];
        for (int i = 0; i < nargs; i++)
            vals[i] = args[i].value;
        const char *why = "";
        int rc = usmarr__expr_fold(op, vals, nargs, &r.value, &why);
        if (rc == 0) {
            r.constant = true;
            return r;
        }
        if (rc != 1 || strcmp(why, "not a Python operation on numbers")) {
            fail_at(ps, at, USMARR_ERROR_PARSE, "%s of numbers fails: %s", usmarr__elementwise_op(op)->name, why);
            return r;
        }
    }
    struct usmarr__xnode n = {.kind = USMARR__X_CALL, .op = op, .nargs = nargs, .column = column_of(ps, at),
                              .from_operator = from_operator};
    for (int i = 0; i < nargs; i++) {
        if (materialize(ps, &args[i]))
            return r;
        n.args[i] = args[i].node;
    }
    r.node = add_node(ps, &n);
    return r;
}

static struct pval call_named(struct parser *ps, const char *name, struct pval *args, int nargs, const char *at)
{
    return call(ps, usmarr__elementwise_find(name, strlen(name)), args, nargs, at, true);
}

static usmarr_scalar_t scalar_of_bytes(usmarr_dtype_t d, const unsigned char *b)
{
    usmarr_scalar_t s;
    double c[2];
    memset(&s, 0, sizeof s);
    switch (usmarr_dtype_kind(d)) {
    case USMARR_KIND_BOOL: s = usmarr_scalar_bool(b[0] != 0); break;
    case USMARR_KIND_INT: {
        int64_t v = 0;
        size_t n = usmarr_dtype_size(d);
        memcpy(&v, b, n);
        if (n < 8 && (b[n - 1] & 0x80)) /* sign-extend */
            v |= (int64_t)(UINT64_MAX << (n * 8));
        s = usmarr_scalar_int(v);
        break;
    }
    case USMARR_KIND_UINT: {
        uint64_t v = 0;
        memcpy(&v, b, usmarr_dtype_size(d));
        s = usmarr_scalar_uint(v);
        break;
    }
    case USMARR_KIND_FLOAT: {
        float f;
        double v;
        uint16_t h;
        if (d == USMARR_FLOAT16)
            memcpy(&h, b, 2), v = usmarr__half_to_double(h);
        else if (d == USMARR_FLOAT32)
            memcpy(&f, b, 4), v = f;
        else
            memcpy(&v, b, 8);
        s = usmarr_scalar_float(v);
        break;
    }
    default:
        if (d == USMARR_COMPLEX64) {
            float f[2];
            memcpy(f, b, 8);
            c[0] = f[0], c[1] = f[1];
        } else
            memcpy(c, b, 16);
        s = usmarr_scalar_complex(c[0], c[1]);
        break;
    }
    s.dtype = (int)d;
    return s;
}

static struct pval cast(struct parser *ps, usmarr_dtype_t d, struct pval *arg, const char *at)
{
    struct pval r = value_at(at);
    if (arg->constant && arg->reduction < 0) { /* float32(2.5): a float32 number */
        _Alignas(16) unsigned char bytes[16];
        if (usmarr__scalar_store(arg->value, d, bytes, "the number")) {
            fail_at(ps, at, USMARR_ERROR_PARSE, "%s(...) of a number fails: %s", usmarr_dtype_name((usmarr_dtype_t)d),
                    usmarr_last_error_detail());
            return r;
        }
        r.constant = true;
        r.value = scalar_of_bytes(d, bytes);
        return r;
    }
    if (materialize(ps, arg))
        return r;
    struct usmarr__xnode n = {.kind = USMARR__X_CAST, .op = (int)d, .nargs = 1, .args = {arg->node},
                              .column = column_of(ps, at)};
    r.node = add_node(ps, &n);
    return r;
}

/* ---- the grammar --------------------------------------------------------------------------- */

static struct pval conditional(struct parser *ps);

static int reduction_named(const char *s, size_t len)
{
    const char *n;
    for (int i = 0; (n = usmarr__reduce_name(i)) != NULL; i++)
        if (strlen(n) == len && !strncmp(n, s, len))
            return i;
    return -1;
}

/* name(args): an elementwise function, a cast, astype(x, dtype) or a reduction. */
static struct pval call_of(struct parser *ps, const char *name, size_t len)
{
    struct pval args[3], r = value_at(name);
    int nargs = 0;
    int op = usmarr__elementwise_find(name, len), d = usmarr__dtype_named(name, len), red = reduction_named(name, len);
    bool astype = len == 6 && !strncmp(name, "astype", 6);
    if (op < 0 && d < 0 && red < 0 && !astype) {
        fail_at(ps, name, USMARR_ERROR_PARSE, "unknown function '%.*s'", (int)len, name);
        return r;
    }
    if (op >= 0 && usmarr__elementwise_op(op)->params) {
        fail_at(ps, name, USMARR_ERROR_PARSE, "'%.*s' has parameters; call it outside the expression", (int)len, name);
        return r;
    }
    int arity = op >= 0 ? usmarr__elementwise_op(op)->arity : astype ? 2 : 1;
    next(ps); /* '(' */
    while (!ps->rc && !is(ps, ")")) {
        if (nargs && !is(ps, ",")) {
            expected(ps, "',' or ')'");
            return r;
        }
        if (nargs)
            next(ps);
        if (nargs == arity) {
            fail_at(ps, name, USMARR_ERROR_PARSE, "'%.*s' takes %d argument%s, more given", (int)len, name, arity,
                    arity == 1 ? "" : "s");
            return r;
        }
        if (astype && nargs == 1) { /* the dtype */
            int dd = ps->tok.type == T_NAME ? usmarr__dtype_named(ps->tok.start, ps->tok.len) : -1;
            if (dd < 0) {
                expected(ps, "a dtype name");
                return r;
            }
            d = dd;
            nargs++;
            next(ps);
            continue;
        }
        args[nargs++] = conditional(ps);
    }
    if (ps->rc)
        return r;
    if (nargs != arity) {
        fail_at(ps, name, USMARR_ERROR_PARSE, "'%.*s' takes %d argument%s, %d given", (int)len, name, arity,
                arity == 1 ? "" : "s", nargs);
        return r;
    }
    next(ps); /* ')' */
    if (red >= 0) {
        if (materialize(ps, &args[0]))
            return r;
        r.node = args[0].node;
        r.reduction = red;
        return r;
    }
    if (d >= 0)
        return cast(ps, (usmarr_dtype_t)d, &args[0], name);
    return call(ps, op, args, nargs, name, false);
}

/* A name outside a call: an operand, or pi, inf, nan, True, False. */
static struct pval name_value(struct parser *ps, const char *s, size_t len)
{
    struct pval r = value_at(s);
    for (size_t i = 0; ps->names && i < ps->nnames; i++)
        if (strlen(ps->names[i]) == len && !strncmp(ps->names[i], s, len)) {
            struct usmarr__xnode n = {.kind = USMARR__X_OPERAND, .op = (int)i, .column = column_of(ps, s)};
            r.node = add_node(ps, &n);
            return r;
        }
    static const char *const consts[] = {"pi", "inf", "nan", "True", "False", "true", "false"};
    const usmarr_scalar_t values[] = {usmarr_scalar_float(M_PI), usmarr_scalar_float(INFINITY),
                                      usmarr_scalar_float(NAN),  usmarr_scalar_bool(true),
                                      usmarr_scalar_bool(false), usmarr_scalar_bool(true),
                                      usmarr_scalar_bool(false)};
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
        if (strlen(consts[i]) == len && !strncmp(consts[i], s, len)) {
            r.constant = true;
            r.value = values[i];
            return r;
        }
    if (ps->names) {
        fail_at(ps, s, USMARR_ERROR_PARSE, "unknown name '%.*s'", (int)len, s);
        return r;
    }
    if (len > NAME_MAX_LENGTH) {
        fail_at(ps, s, USMARR_ERROR_PARSE, "a name longer than %d characters", NAME_MAX_LENGTH);
        return r;
    }
    size_t k = 0;
    if (ps->build) {
        while (k < ps->nseen && !(ps->seen_len[k] == len && !strncmp(ps->seen[k], s, len)))
            k++;
        if (k == ps->nseen) {
            ps->seen[k] = s;
            ps->seen_len[k] = len;
            ps->nseen++;
        }
    }
    struct usmarr__xnode n = {.kind = USMARR__X_OPERAND, .op = (int)k, .column = column_of(ps, s)};
    r.node = add_node(ps, &n);
    return r;
}

static struct pval primary(struct parser *ps)
{
    struct pval r = value_at(ps->tok.start);
    if (ps->rc)
        return r;
    if (ps->tok.type == T_NUMBER) {
        r.constant = true;
        r.value = ps->tok.value;
        next(ps);
        return r;
    }
    if (is(ps, "(")) {
        next(ps);
        r = conditional(ps);
        if (!ps->rc && !is(ps, ")"))
            expected(ps, "')'");
        next(ps);
        return r;
    }
    static const char *const keywords[] = {"and", "or", "not", "if", "else"};
    bool keyword = false;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        keyword = keyword || is(ps, keywords[i]);
    if (ps->tok.type != T_NAME || keyword) {
        expected(ps, "a value");
        return r;
    }
    const char *name = ps->tok.start;
    size_t len = ps->tok.len;
    next(ps);
    if (is(ps, "("))
        return call_of(ps, name, len);
    return name_value(ps, name, len);
}

static struct pval unary(struct parser *ps);

/* power := primary ['**' unary], right to left (-a**2 is -(a**2), a**-b is allowed) */
static struct pval power(struct parser *ps)
{
    struct pval a = primary(ps);
    if (ps->rc || !is(ps, "**"))
        return a;
    const char *at = ps->tok.start;
    next(ps);
    struct pval args[2] = {a, unary(ps)};
    return ps->rc ? a : call_named(ps, "pow", args, 2, at);
}

/* A prefix operator at the current token: its operand by `operand` (one level of nesting
 * deeper), then the function `fn` of it. */
static struct pval prefix(struct parser *ps, const char *fn, struct pval (*operand)(struct parser *))
{
    const char *at = ps->tok.start;
    if (++ps->depth > MAX_DEPTH) {
        fail_at(ps, at, USMARR_ERROR_PARSE, "nested deeper than %d levels", MAX_DEPTH);
        return value_at(at);
    }
    next(ps);
    struct pval a = operand(ps);
    ps->depth--;
    return ps->rc ? a : call_named(ps, fn, &a, 1, at);
}

static struct pval unary(struct parser *ps)
{
    static const char *const ops[][2] = {{"-", "negative"}, {"+", "positive"}, {"~", "bitwise_invert"},
                                         {"!", "logical_not"}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (is(ps, ops[i][0]))
            return prefix(ps, ops[i][1], unary);
    return power(ps);
}

/* One left-to-right level of binary operators: ops[k][0] the token, [1] the function. */
struct level {
    const char *const (*ops)[2];
    size_t nops;
    const struct level *below; /* NULL: unary() */
};

static struct pval binary(struct parser *ps, const struct level *lv)
{
    struct pval a = lv->below ? binary(ps, lv->below) : unary(ps);
    for (;;) {
        size_t i = 0;
        while (i < lv->nops && !is(ps, lv->ops[i][0]))
            i++;
        if (ps->rc || i == lv->nops)
            return a;
        const char *at = ps->tok.start;
        next(ps);
        struct pval args[2] = {a, lv->below ? binary(ps, lv->below) : unary(ps)};
        if (ps->rc)
            return a;
        a = call_named(ps, lv->ops[i][1], args, 2, at);
    }
}

static const char *const term_ops[][2] = {{"*", "multiply"}, {"/", "divide"}, {"//", "floor_divide"}, {"%", "remainder"}};
static const char *const arith_ops[][2] = {{"+", "add"}, {"-", "subtract"}};
static const char *const shift_ops[][2] = {{"<<", "left_shift"}, {">>", "right_shift"}};
static const char *const and_ops[][2] = {{"&", "bitwise_and"}};
static const char *const xor_ops[][2] = {{"^", "bitwise_xor"}};
static const char *const or_ops[][2] = {{"|", "bitwise_or"}};
static const char *const compare_ops[][2] = {{"<", "less"},     {"<=", "less_equal"}, {">", "greater"},
                                             {">=", "greater_equal"}, {"==", "equal"}, {"!=", "not_equal"}};
static const struct level term_level = {term_ops, 4, NULL};
static const struct level arith_level = {arith_ops, 2, &term_level};
static const struct level shift_level = {shift_ops, 2, &arith_level};
static const struct level and_level = {and_ops, 1, &shift_level};
static const struct level xor_level = {xor_ops, 1, &and_level};
static const struct level or_level = {or_ops, 1, &xor_level};

static int compare_op(const struct parser *ps)
{
    for (int i = 0; i < 6; i++)
        if (is(ps, compare_ops[i][0]))
            return i;
    return -1;
}

/* comparison: one comparison at most (NumPy arrays do not chain them) */
static struct pval comparison(struct parser *ps)
{
    struct pval a = binary(ps, &or_level);
    int i = ps->rc ? -1 : compare_op(ps);
    if (i < 0)
        return a;
    const char *at = ps->tok.start;
    next(ps);
    struct pval args[2] = {a, binary(ps, &or_level)};
    if (ps->rc)
        return a;
    if (compare_op(ps) >= 0) {
        fail_at(ps, ps->tok.start, USMARR_ERROR_PARSE, "comparisons do not chain; write (a < b) & (b < c)");
        return a;
    }
    return call_named(ps, compare_ops[i][1], args, 2, at);
}

static struct pval not_test(struct parser *ps)
{
    return is(ps, "not") ? prefix(ps, "logical_not", not_test) : comparison(ps);
}

static struct pval logical(struct parser *ps, bool is_or)
{
    struct pval a = is_or ? logical(ps, false) : not_test(ps);
    while (!ps->rc && (is_or ? is(ps, "or") || is(ps, "||") : is(ps, "and") || is(ps, "&&"))) {
        const char *at = ps->tok.start;
        next(ps);
        struct pval args[2] = {a, is_or ? logical(ps, false) : not_test(ps)};
        if (ps->rc)
            return a;
        a = call_named(ps, is_or ? "logical_or" : "logical_and", args, 2, at);
    }
    return a;
}

/* conditional := or ['?' conditional ':' conditional] | or ['if' or 'else' conditional] */
static struct pval conditional(struct parser *ps)
{
    const char *start = ps->tok.start;
    if (++ps->depth > MAX_DEPTH) {
        fail_at(ps, start, USMARR_ERROR_PARSE, "nested deeper than %d levels", MAX_DEPTH);
        return value_at(start);
    }
    struct pval a = logical(ps, true), args[3];
    if (!ps->rc && (is(ps, "?") || is(ps, "if"))) {
        bool c_style = is(ps, "?");
        const char *at = ps->tok.start;
        next(ps);
        if (c_style) {
            args[0] = a;
            args[1] = conditional(ps);
            if (!ps->rc && !is(ps, ":"))
                expected(ps, "':'");
        } else {
            args[1] = a;
            args[0] = logical(ps, true);
            if (!ps->rc && !is(ps, "else"))
                expected(ps, "'else'");
        }
        next(ps);
        args[2] = conditional(ps);
        if (!ps->rc)
            a = call_named(ps, "where", args, 3, at);
    }
    ps->depth--;
    return a;
}

/* One pass over the text; the root is the last node.  *reduction: -1 or the reduction. */
static int parse(struct parser *ps, int *reduction)
{
    ps->p = ps->text;
    ps->nnodes = 0;
    ps->depth = 0;
    if (next(ps))
        return ps->rc;
    if (ps->tok.type == T_END)
        return expected(ps, "an expression");
    struct pval root = conditional(ps);
    if (!ps->rc && ps->tok.type != T_END)
        expected(ps, "an operator or the end");
    *reduction = root.reduction;
    root.reduction = -1;
    if (!ps->rc && root.constant) /* a number alone is a node too */
        materialize(ps, &root);
    return ps->rc;
}

int usmarr__expr_parse(const char *text, const char *const *names, size_t nnames, struct usmarr__xnode *nodes,
                      int *nnodes, int *reduction, const char **seen, size_t *seen_len, size_t *nseen)
{
    struct parser ps = {.text = text, .names = names, .nnames = names ? nnames : 0, .build = nodes != NULL,
                        .nodes = nodes, .seen = seen, .seen_len = seen_len};
    int rc = parse(&ps, reduction);
    *nnodes = ps.nnodes;
    if (nseen)
        *nseen = ps.nseen;
    return rc;
}
