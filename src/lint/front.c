/*
 * front.c - compile to bitcode, read it with the LLVM C API, write the
 * program model (see front.h).
 *
 * Why bitcode at -O0 with mem2reg: the compiler has already done the work
 * of C (macros, types, implicit conversions, evaluation order); its IR has
 * one instruction per memory access and per call, real control-flow graphs
 * and debug locations. -O0 keeps every call where the programmer wrote it
 * (nothing inlined, nothing merged); mem2reg then turns local variables
 * into SSA values, so `char *p = name; access(p); open(p)` uses one value
 * twice. -gline-tables-only gives lines and columns for the least cost;
 * -fno-discard-value-names keeps the names clang gives values (variables,
 * fields), which messages use.
 *
 * Translation is lazy and memoised: an instruction's value (an access
 * path, ir.h) is computed when an event needs it, following operands
 * through casts, address arithmetic (getelementptr, in bytes from the
 * module's data layout) and loads. A phi of different inputs is an opaque
 * value of its own with those inputs as alternatives; a cycle of phis
 * (a loop variable) stays opaque.
 *
 * An indirect call through a table of function pointers in a global's
 * initializer (SQLite's aSyscall[], a vtable-like struct of defaults) is
 * resolved to the function the initializer names: that is the target
 * unless the program overwrites the table at run time. Every other flow
 * of a function pointer - stored into a struct field or a global, passed
 * as an argument, returned, named in an initializer - is recorded as a
 * fact (ir.h: struct ravel__lint_fpflow) for points.c, which solves them
 * over the whole program once every unit is read.
 */
#include "front.h"

#include "../common/hash.h"
#include "../common/strbuf.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/Utils.h>
#include <llvm/Config/llvm-config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NONE RAVEL__LINT_NONE

/* Depth of operand chains followed when naming one value; past it the
 * value is opaque. Real expressions are far shallower; long chains of
 * phis in generated code are not worth following. */
#define VALUE_DEPTH 200

/* Largest compiler error output kept to quote one line from. */
#define STDERR_LIMIT (1u << 20)

const char *ravel__lint_llvm_version(void)
{
    return LLVM_VERSION_STRING;
}

/* snprintf into a fixed buffer where truncation is acceptable (paths
 * longer than PATH_MAX fail later, when they are opened). */
static void fmt(char *buf, size_t len, const char *f, ...) RAVEL__PRINTF(3, 4);
static void fmt(char *buf, size_t len, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, len, f, ap);
    va_end(ap);
}

/* ---- a pointer -> id map (open addressing) ------------------------------------- */

struct pmap {
    const void **k;
    uint32_t *v;
    uint32_t n, cap;
};

static void pmap_clear(struct pmap *m)
{
    if (m->cap)
        memset(m->k, 0, (size_t)m->cap * sizeof *m->k);
    m->n = 0;
}

static void pmap_free(struct pmap *m)
{
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof *m);
}

static uint32_t *pmap_slot(struct pmap *m, const void *key, bool create)
{
    if (create && (m->n + 1) * 2 > m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 256;
        const void **nk = calloc(cap, sizeof *nk);
        uint32_t *nv = malloc((size_t)cap * sizeof *nv);
        RAVEL__CHECK(nk && nv);
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->k[i])
                continue;
            uint32_t h = (uint32_t)ravel__hash_ptr((uint64_t)(uintptr_t)m->k[i]) & (cap - 1);
            while (nk[h])
                h = (h + 1) & (cap - 1);
            nk[h] = m->k[i];
            nv[h] = m->v[i];
        }
        free(m->k);
        free(m->v);
        m->k = nk;
        m->v = nv;
        m->cap = cap;
    }
    if (!m->cap)
        return NULL;
    uint32_t h = (uint32_t)ravel__hash_ptr((uint64_t)(uintptr_t)key) & (m->cap - 1);
    while (m->k[h]) {
        if (m->k[h] == key)
            return &m->v[h];
        h = (h + 1) & (m->cap - 1);
    }
    if (!create)
        return NULL;
    m->k[h] = key;
    m->n++;
    return &m->v[h];
}

struct fname {
    LLVMTypeRef sty;
    unsigned field;
    char *name;
};

struct fnames {
    struct fname *v;
    uint32_t cap, n;
};

/* ---- translation of one module ----------------------------------------------- */

struct tr {
    struct ravel__lint_prog *prog;
    const struct ravel__lint_specs *specs;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    uint32_t tu;
    const char *cwd;
    struct pmap gvals;  /* globals and constants -> value id */
    struct pmap vals;   /* this function's values -> value id */
    struct pmap blocks; /* this function's blocks -> index */
    struct pmap callev; /* this function's calls and loads -> event */
    struct fnames fieldnames; /* (struct type, field) -> its name */
    uint32_t fid;       /* function being translated */
    uint32_t fsym;      /* its symbol */
    uint32_t nextid;    /* ids of its locals and opaque values */
    /* Last debug file seen, to avoid re-interning per instruction. */
    const char *last_dir, *last_name;
    uint32_t last_file;
    uint32_t func_file, func_line;
};

static uint32_t file_id(struct tr *t, const char *dir, unsigned dlen,
                        const char *name, unsigned nlen)
{
    if (!name || !nlen)
        return t->func_file;
    if (name == t->last_name && dir == t->last_dir)
        return t->last_file;
    char d[PATH_MAX], n[PATH_MAX];
    fmt(d, sizeof d, "%.*s", (int)dlen, dir ? dir : "");
    fmt(n, sizeof n, "%.*s", (int)nlen, name);
    /* Opened by its normalised absolute path; shown as the compiler was
     * given it, relative when it was compiled here. */
    char *path = ravel__lint_path_join(d[0] ? d : (t->cwd ? t->cwd : "."), n);
    const char *shown = path;
    if (n[0] != '/' && t->cwd && !strcmp(t->cwd, d))
        shown = n;
    t->last_name = name;
    t->last_dir = dir;
    t->last_file = ravel__lint_file(t->prog, shown, path);
    free(path);
    return t->last_file;
}

static void loc_of(struct tr *t, LLVMValueRef inst, uint32_t *file, uint32_t *line,
                   uint32_t *col)
{
    unsigned dl = 0, nl = 0;
    const char *dir = LLVMGetDebugLocDirectory(inst, &dl);
    const char *name = LLVMGetDebugLocFilename(inst, &nl);
    *line = LLVMGetDebugLocLine(inst);
    *col = LLVMGetDebugLocColumn(inst);
    if (*line == 0) {
        *file = t->func_file;
        *line = t->func_line;
        *col = 0;
        return;
    }
    *file = file_id(t, dir, dl, name, nl);
}

static uint32_t sym_of(struct tr *t, LLVMValueRef g, enum ravel__lint_sym_kind kind)
{
    size_t len;
    const char *name = LLVMGetValueName2(g, &len);
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)len, name ? name : "");
    LLVMLinkage l = LLVMGetLinkage(g);
    bool internal = l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
    uint32_t s = ravel__lint_sym(t->prog, buf, internal ? t->tu : NONE, kind);
    if (kind == RAVEL__SYM_GLOBAL && LLVMIsAGlobalVariable(g)) {
        if (LLVMIsThreadLocal(g))
            t->prog->syms[s].flags |= RAVEL__SYMF_TLS;
        if (LLVMIsGlobalConstant(g))
            t->prog->syms[s].flags |= RAVEL__SYMF_CONST;
        LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
        if (init && !LLVMIsNull(init))
            t->prog->syms[s].flags |= RAVEL__SYMF_INIT;
        if (init && LLVMGetTypeKind(LLVMTypeOf(init)) == LLVMIntegerTypeKind &&
            (LLVMIsAConstantInt(init) || LLVMIsNull(init))) {
            t->prog->syms[s].flags |= RAVEL__SYMF_INTVAL;
            t->prog->syms[s].init = LLVMIsAConstantInt(init) ? LLVMConstIntGetSExtValue(init) : 0;
        }
    }
    return s;
}

static uint32_t val_of(struct tr *t, LLVMValueRef v, int depth);

static LLVMValueRef strip_casts(LLVMValueRef v)
{
    for (int i = 0; i < 16 && v; i++) {
        if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) {
            v = LLVMGetOperand(v, 0);
            continue;
        }
        if (LLVMIsAConstantExpr(v)) {
            LLVMOpcode op = LLVMGetConstOpcode(v);
            if (op == LLVMBitCast || op == LLVMAddrSpaceCast || op == LLVMPtrToInt ||
                op == LLVMIntToPtr) {
                v = LLVMGetOperand(v, 0);
                continue;
            }
        }
        break;
    }
    return v;
}

/* A step of address arithmetic, recorded so it can be applied to every
 * member of the base pointer's value. */
struct step {
    int64_t off;   /* constant bytes, or ... */
    uint32_t ix;   /* ... a variable index path (NONE for constant) */
    int64_t scale;
};

static uint32_t apply_steps(struct tr *t, uint32_t ap, const struct step *s, int n)
{
    for (int i = 0; i < n; i++) {
        if (s[i].ix == NONE)
            ap = ravel__lint_ap_offset(t->prog, ap, s[i].off);
        else
            ap = ravel__lint_ap_index(t->prog, ap, s[i].ix, s[i].scale);
    }
    return ap;
}

/* Field names: clang names a member access after the field and makes a
 * repeated name unique with a number, so the shortest name seen in the
 * module for a (struct type, field) pair is the field's own. */
static struct fname *fname_slot(struct fnames *m, LLVMTypeRef sty, unsigned field,
                                bool create)
{
    if (create && (m->n + 1) * 2 > m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 256;
        struct fname *nv = calloc(cap, sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->v[i].sty)
                continue;
            uint32_t h = (uint32_t)ravel__hash_ptr((uint64_t)(uintptr_t)m->v[i].sty ^
                                                   ((uint64_t)m->v[i].field << 48)) &
                         (cap - 1);
            while (nv[h].sty)
                h = (h + 1) & (cap - 1);
            nv[h] = m->v[i];
        }
        free(m->v);
        m->v = nv;
        m->cap = cap;
    }
    if (!m->cap)
        return NULL;
    uint32_t h = (uint32_t)ravel__hash_ptr((uint64_t)(uintptr_t)sty ^ ((uint64_t)field << 48)) &
                 (m->cap - 1);
    while (m->v[h].sty) {
        if (m->v[h].sty == sty && m->v[h].field == field)
            return &m->v[h];
        h = (h + 1) & (m->cap - 1);
    }
    if (!create)
        return NULL;
    m->v[h].sty = sty;
    m->v[h].field = field;
    m->v[h].name = NULL;
    m->n++;
    return &m->v[h];
}

static void fnames_free(struct fnames *m)
{
    for (uint32_t i = 0; i < m->cap; i++)
        free(m->v[i].name);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* The struct type and field a getelementptr ends in, if it ends in one. */
static bool gep_last_field(LLVMTargetDataRef td, LLVMValueRef g, LLVMTypeRef *sty,
                           unsigned *field)
{
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(g);
    unsigned n = (unsigned)LLVMGetNumOperands(g);
    bool found = false;
    (void)td;
    for (unsigned i = 2; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(g, i);
        LLVMTypeKind k = LLVMGetTypeKind(ty);
        if (k == LLVMStructTypeKind) {
            if (!LLVMIsAConstantInt(ix))
                return false;
            *sty = ty;
            *field = (unsigned)LLVMConstIntGetZExtValue(ix);
            found = true;
            ty = LLVMStructGetTypeAtIndex(ty, *field);
        } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
            ty = LLVMGetElementType(ty);
            found = false;
        } else {
            return false;
        }
    }
    return found;
}

static void collect_field_names(struct tr *t)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(t->mod); f; f = LLVMGetNextFunction(f)) {
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                if (LLVMGetInstructionOpcode(i) != LLVMGetElementPtr)
                    continue;
                size_t len;
                const char *name = LLVMGetValueName2(i, &len);
                LLVMTypeRef sty;
                unsigned field;
                if (!name || !len || len > 200 || !gep_last_field(t->td, i, &sty, &field))
                    continue;
                struct fname *e = fname_slot(&t->fieldnames, sty, field, true);
                if (!e->name || strlen(e->name) > len) {
                    free(e->name);
                    e->name = malloc(len + 1);
                    RAVEL__CHECK(e->name != NULL);
                    memcpy(e->name, name, len);
                    e->name[len] = 0;
                }
            }
        }
    }
}

static uint32_t gep_val(struct tr *t, LLVMValueRef g, int depth, bool is_inst)
{
    struct ravel__lint_prog *p = t->prog;
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(g);
    unsigned n = (unsigned)LLVMGetNumOperands(g);
    struct step steps[32];
    int ns = 0;
    int64_t off = 0;
    LLVMTypeRef last_struct = NULL;
    unsigned last_field = 0;
    for (unsigned i = 1; i < n && ns < 30; i++) {
        LLVMValueRef ix = LLVMGetOperand(g, i);
        if (i == 1) {
            int64_t scale = (int64_t)LLVMABISizeOfType(t->td, ty);
            if (LLVMIsAConstantInt(ix)) {
                off += LLVMConstIntGetSExtValue(ix) * scale;
            } else {
                steps[ns++] = (struct step){off, NONE, 0};
                off = 0;
                steps[ns++] = (struct step){0, ravel__lint_val_primary(p, val_of(t, ix, depth + 1)),
                                            scale};
            }
            continue;
        }
        LLVMTypeKind k = LLVMGetTypeKind(ty);
        if (k == LLVMStructTypeKind) {
            unsigned field = LLVMIsAConstantInt(ix) ? (unsigned)LLVMConstIntGetZExtValue(ix) : 0;
            off += (int64_t)LLVMOffsetOfElement(t->td, ty, field);
            last_struct = ty;
            last_field = field;
            ty = LLVMStructGetTypeAtIndex(ty, field);
        } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
            LLVMTypeRef el = LLVMGetElementType(ty);
            int64_t scale = (int64_t)LLVMABISizeOfType(t->td, el);
            if (LLVMIsAConstantInt(ix)) {
                off += LLVMConstIntGetSExtValue(ix) * scale;
            } else {
                steps[ns++] = (struct step){off, NONE, 0};
                off = 0;
                steps[ns++] = (struct step){0, ravel__lint_val_primary(p, val_of(t, ix, depth + 1)),
                                            scale};
            }
            ty = el;
            last_struct = NULL;
        } else {
            break;
        }
    }
    steps[ns++] = (struct step){off, NONE, 0};
    uint32_t base = val_of(t, LLVMGetOperand(g, 0), depth + 1);
    const struct ravel__lint_val bv = p->vals[base];
    uint32_t out[RAVEL__LINT_VAL_MAX];
    for (uint32_t m = 0; m < bv.n; m++)
        out[m] = apply_steps(t, bv.ap[m], steps, ns);
    if (is_inst && last_struct) {
        const struct fname *e = fname_slot(&t->fieldnames, last_struct, last_field, false);
        for (uint32_t m = 0; e && e->name && m < bv.n; m++)
            if (out[m] && p->aps[out[m]].kind == RAVEL__AP_OFFSET)
                ravel__lint_ap_setname(p, out[m], e->name);
    }
    return ravel__lint_val(p, out, bv.n);
}

/* Derives a value member by member: op is DEREF (load). */
static uint32_t deref_val(struct tr *t, uint32_t v)
{
    struct ravel__lint_prog *p = t->prog;
    const struct ravel__lint_val bv = p->vals[v];
    uint32_t out[RAVEL__LINT_VAL_MAX];
    for (uint32_t m = 0; m < bv.n; m++)
        out[m] = ravel__lint_ap_deref(p, bv.ap[m]);
    return ravel__lint_val(p, out, bv.n);
}

static uint32_t opaque(struct tr *t, LLVMValueRef v)
{
    struct ravel__lint_prog *p = t->prog;
    uint32_t ap = ravel__lint_ap_root(p, RAVEL__AP_VALUE, t->fid, t->nextid++);
    size_t len;
    const char *name = LLVMGetValueName2(v, &len);
    if (name && len) {
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)len, name);
        ravel__lint_ap_setname(p, ap, buf);
    }
    return ravel__lint_val1(p, ap);
}

static uint32_t const_val(struct tr *t, LLVMValueRef v, int depth)
{
    struct ravel__lint_prog *p = t->prog;
    uint32_t *slot = pmap_slot(&t->gvals, v, false);
    if (slot)
        return *slot;
    uint32_t r;
    if (LLVMIsAFunction(v)) {
        r = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_FUNC,
                                                    sym_of(t, v, RAVEL__SYM_FUNC), 0));
    } else if (LLVMIsAGlobalVariable(v)) {
        LLVMValueRef init = LLVMIsGlobalConstant(v) ? LLVMGetInitializer(v) : NULL;
        if (init && LLVMIsAConstantDataSequential(init) && LLVMIsConstantString(init)) {
            size_t len;
            const char *s = LLVMGetAsString(init, &len);
            r = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_STR,
                                                        ravel__lint_str(p, s, len), 0));
        } else {
            uint32_t sym = sym_of(t, v, RAVEL__SYM_GLOBAL);
            r = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_GLOBAL, sym, 0));
        }
    } else if (LLVMIsAConstantInt(v)) {
        r = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_INT,
                                                    LLVMConstIntGetSExtValue(v), 0));
    } else if (LLVMIsAConstantPointerNull(v)) {
        r = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_INT, 0, 0));
    } else if (LLVMIsAConstantExpr(v)) {
        LLVMOpcode op = LLVMGetConstOpcode(v);
        if (op == LLVMGetElementPtr)
            r = gep_val(t, v, depth, false);
        else if (op == LLVMBitCast || op == LLVMAddrSpaceCast || op == LLVMPtrToInt ||
                 op == LLVMIntToPtr)
            r = val_of(t, LLVMGetOperand(v, 0), depth + 1);
        else
            r = ravel__lint_val1(p, 0);
    } else {
        r = ravel__lint_val1(p, 0);
    }
    slot = pmap_slot(&t->gvals, v, true);
    *slot = r;
    return r;
}

static uint32_t val_of(struct tr *t, LLVMValueRef v, int depth)
{
    struct ravel__lint_prog *p = t->prog;
    if (!v)
        return ravel__lint_val1(p, 0);
    if (LLVMIsAArgument(v)) {
        uint32_t *slot = pmap_slot(&t->vals, v, false);
        if (slot)
            return *slot;
        return ravel__lint_val1(p, 0);
    }
    if (!LLVMIsAInstruction(v))
        return const_val(t, v, depth);
    uint32_t *slot = pmap_slot(&t->vals, v, false);
    if (slot)
        return *slot;
    if (depth > VALUE_DEPTH)
        return opaque(t, v);
    uint32_t r;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    switch (op) {
    case LLVMAlloca: {
        uint32_t ap = ravel__lint_ap_root(p, RAVEL__AP_LOCAL, t->fid, t->nextid++);
        size_t len;
        const char *name = LLVMGetValueName2(v, &len);
        if (name && len) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s", (int)len, name);
            char *dot = strstr(buf, ".addr");
            if (dot)
                *dot = 0;
            ravel__lint_ap_setname(p, ap, buf);
        }
        r = ravel__lint_val1(p, ap);
        break;
    }
    case LLVMLoad:
        r = deref_val(t, val_of(t, LLVMGetOperand(v, 0), depth + 1));
        break;
    case LLVMGetElementPtr:
        r = gep_val(t, v, depth, true);
        break;
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMTrunc:
        r = val_of(t, LLVMGetOperand(v, 0), depth + 1);
        break;
    case LLVMPHI:
    case LLVMSelect: {
        /* Opaque while its inputs are followed, so a cycle ends here. */
        uint32_t self = opaque(t, v);
        slot = pmap_slot(&t->vals, v, true);
        *slot = self;
        unsigned n = op == LLVMPHI ? LLVMCountIncoming(v) : 2;
        uint32_t members[RAVEL__LINT_VAL_MAX];
        uint32_t nm = 0;
        uint32_t first = NONE;
        bool all_same = true;
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef in = op == LLVMPHI ? LLVMGetIncomingValue(v, i)
                                            : LLVMGetOperand(v, i + 1);
            if (in == v)
                continue;
            uint32_t iv = val_of(t, in, depth + 1);
            uint32_t ap = ravel__lint_val_primary(p, iv);
            if (ap == p->vals[self].ap[0])
                continue; /* the loop feeding itself back */
            if (first == NONE)
                first = iv;
            else if (ravel__lint_val_primary(p, first) != ap)
                all_same = false;
            bool dup = false;
            for (uint32_t k = 0; k < nm; k++)
                dup |= members[k] == ap;
            if (!dup && nm + 1 < RAVEL__LINT_VAL_MAX)
                members[nm++] = ap;
        }
        if (first != NONE && all_same) {
            r = first;
        } else {
            uint32_t m[RAVEL__LINT_VAL_MAX];
            m[0] = p->vals[self].ap[0];
            for (uint32_t k = 0; k < nm; k++)
                m[k + 1] = members[k];
            r = ravel__lint_val(p, m, nm + 1);
        }
        *pmap_slot(&t->vals, v, true) = r;
        return r;
    }
    default:
        r = opaque(t, v);
        break;
    }
    slot = pmap_slot(&t->vals, v, true);
    *slot = r;
    return r;
}


/* ---- function-pointer facts ------------------------------------------------------ */

static bool is_fnptr_type(LLVMTypeRef ty)
{
    return LLVMGetTypeKind(ty) == LLVMPointerTypeKind &&
           LLVMGetTypeKind(LLVMGetElementType(ty)) == LLVMFunctionTypeKind;
}

static uint32_t cell(struct tr *t, const char *f, ...) RAVEL__PRINTF(2, 3);
static uint32_t cell(struct tr *t, const char *f, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    if (n < 0)
        return NONE;
    if ((size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    return ravel__lint_str(t->prog, buf, (size_t)n);
}

/* A struct type's name without clang's ".N" suffixes, so one C type has
 * one name in every unit; false for literal (unnamed) structs. */
static bool struct_name(LLVMTypeRef sty, char *buf, size_t len)
{
    const char *n = LLVMGetStructName(sty);
    if (!n || !*n)
        return false;
    snprintf(buf, len, "%s", n);
    for (;;) {
        char *dot = strrchr(buf, '.');
        if (!dot || !dot[1] || dot == buf)
            break;
        bool digits = true;
        for (const char *c = dot + 1; *c; c++)
            digits &= *c >= '0' && *c <= '9';
        if (!digits)
            break;
        *dot = 0;
    }
    return true;
}

/* The last struct field a getelementptr selects, array steps after it
 * included (`s.fns[i]` is in field fns). */
static bool gep_struct_field(LLVMValueRef g, LLVMTypeRef *sty, unsigned *field)
{
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(g);
    unsigned n = (unsigned)LLVMGetNumOperands(g);
    bool found = false;
    for (unsigned i = 2; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(g, i);
        LLVMTypeKind k = LLVMGetTypeKind(ty);
        if (k == LLVMStructTypeKind) {
            if (!LLVMIsAConstantInt(ix))
                return false;
            *sty = ty;
            *field = (unsigned)LLVMConstIntGetZExtValue(ix);
            found = true;
            ty = LLVMStructGetTypeAtIndex(ty, *field);
        } else if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
            ty = LLVMGetElementType(ty);
        } else {
            break;
        }
    }
    return found;
}

static uint32_t field_cell(struct tr *t, LLVMTypeRef sty, unsigned field)
{
    char name[400];
    if (!struct_name(sty, name, sizeof name))
        return NONE;
    return cell(t, "f:%s#%u", name, field);
}

static uint32_t global_cell(struct tr *t, LLVMValueRef g)
{
    return cell(t, "g:%u", sym_of(t, g, RAVEL__SYM_GLOBAL));
}

/* The cell a pointer-typed location at address `ptr` belongs to. */
static uint32_t cell_of_addr(struct tr *t, LLVMValueRef ptr)
{
    LLVMValueRef base = strip_casts(ptr);
    bool gep = LLVMIsAGetElementPtrInst(base) ||
               (LLVMIsAConstantExpr(base) && LLVMGetConstOpcode(base) == LLVMGetElementPtr);
    if (gep) {
        LLVMTypeRef sty;
        unsigned field;
        if (gep_struct_field(base, &sty, &field)) {
            uint32_t c = field_cell(t, sty, field);
            if (c != NONE)
                return c;
        }
        LLVMValueRef b0 = strip_casts(LLVMGetOperand(base, 0));
        if (LLVMIsAGlobalVariable(b0) && !LLVMIsThreadLocal(b0))
            return global_cell(t, b0);
    } else if (LLVMIsAGlobalVariable(base)) {
        return global_cell(t, base);
    } else if (LLVMIsAAllocaInst(base)) {
        return cell(t, "a:%u:%p", t->fid, (void *)base);
    }
    LLVMTypeRef ty = LLVMTypeOf(ptr);
    if (LLVMGetTypeKind(ty) != LLVMPointerTypeKind)
        return NONE;
    char *s = LLVMPrintTypeToString(LLVMGetElementType(ty));
    uint32_t c = cell(t, "t:%s", s);
    LLVMDisposeMessage(s);
    return c;
}

static uint32_t param_index(LLVMValueRef a)
{
    LLVMValueRef fn = LLVMGetParamParent(a);
    unsigned n = LLVMCountParams(fn);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetParam(fn, i) == a)
            return i;
    return NONE;
}

/* Where value v (a function pointer) may come from: functions and cells,
 * appended to out (at most cap). Follows casts, phis and selects. */
static void fp_from(struct tr *t, LLVMValueRef v, int depth, uint32_t *out, uint32_t *n,
                    uint32_t cap)
{
    v = strip_casts(v);
    if (!v || depth > 4 || *n >= cap)
        return;
    uint32_t c = NONE;
    if (LLVMIsAFunction(v)) {
        size_t len;
        const char *name = LLVMGetValueName2(v, &len);
        if (len > 5 && !memcmp(name, "llvm.", 5))
            return;
        c = sym_of(t, v, RAVEL__SYM_FUNC) | RAVEL__LINT_FP_FUNC;
    } else if (LLVMIsAArgument(v)) {
        uint32_t i = param_index(v);
        if (i != NONE)
            c = cell(t, "p:%u#%u", t->fsym, i);
    } else if (LLVMIsALoadInst(v)) {
        c = cell_of_addr(t, LLVMGetOperand(v, 0));
    } else if (LLVMIsACallInst(v)) {
        LLVMValueRef callee = strip_casts(LLVMGetCalledValue(v));
        if (callee && LLVMIsAFunction(callee))
            c = cell(t, "r:%u", sym_of(t, callee, RAVEL__SYM_FUNC));
    } else if (LLVMIsAPHINode(v)) {
        unsigned k = LLVMCountIncoming(v);
        for (unsigned i = 0; i < k; i++)
            if (LLVMGetIncomingValue(v, i) != v)
                fp_from(t, LLVMGetIncomingValue(v, i), depth + 1, out, n, cap);
        return;
    } else if (LLVMIsASelectInst(v)) {
        fp_from(t, LLVMGetOperand(v, 1), depth + 1, out, n, cap);
        fp_from(t, LLVMGetOperand(v, 2), depth + 1, out, n, cap);
        return;
    }
    if (c != NONE)
        out[(*n)++] = c;
}

/* Records that function pointer v flows into cell `to`. */
static void fp_flow_into(struct tr *t, LLVMValueRef v, uint32_t to)
{
    uint32_t from[16], n = 0;
    if (to == NONE)
        return;
    fp_from(t, v, 0, from, &n, 16);
    for (uint32_t i = 0; i < n; i++)
        if (from[i] != to)
            ravel__lint_fp_flow(t->prog, from[i], to);
}

static bool fp_value(LLVMValueRef v)
{
    return is_fnptr_type(LLVMTypeOf(v)) || LLVMIsAFunction(strip_casts(v));
}

/* Function pointers named in a global's initializer, into the cells of
 * the fields (or the global) that hold them. */
static void fp_init(struct tr *t, LLVMValueRef c, uint32_t into, int depth)
{
    c = strip_casts(c);
    if (!c || depth > 8)
        return;
    if (LLVMIsAFunction(c)) {
        if (into != NONE)
            fp_flow_into(t, c, into);
    } else if (LLVMIsAConstantStruct(c)) {
        LLVMTypeRef sty = LLVMTypeOf(c);
        int n = LLVMGetNumOperands(c);
        for (int i = 0; i < n; i++) {
            LLVMValueRef op = LLVMGetOperand(c, (unsigned)i);
            if (LLVMIsAFunction(strip_casts(op)) || LLVMIsAConstantStruct(op) ||
                LLVMIsAConstantArray(op))
                fp_init(t, op, field_cell(t, sty, (unsigned)i), depth + 1);
        }
    } else if (LLVMIsAConstantArray(c)) {
        int n = LLVMGetNumOperands(c);
        for (int i = 0; i < n; i++)
            fp_init(t, LLVMGetOperand(c, (unsigned)i), into, depth + 1);
    }
}

static void fp_globals(struct tr *t)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(t->mod); g; g = LLVMGetNextGlobal(g)) {
        if (LLVMIsDeclaration(g) || LLVMIsThreadLocal(g))
            continue;
        LLVMValueRef init = LLVMGetInitializer(g);
        if (!init || LLVMIsNull(init))
            continue;
        LLVMValueRef s = strip_casts(init);
        if (!(LLVMIsAFunction(s) || LLVMIsAConstantStruct(s) || LLVMIsAConstantArray(s)))
            continue;
        fp_init(t, init, global_cell(t, g), 0);
    }
}

/* The function an indirect call surely reaches through a global's
 * initializer, or NULL. */
static LLVMValueRef resolve_table_call(LLVMValueRef callee)
{
    if (!LLVMIsALoadInst(callee))
        return NULL;
    LLVMValueRef ptr = strip_casts(LLVMGetOperand(callee, 0));
    unsigned idx[8];
    unsigned nidx = 0;
    if (LLVMIsAConstantExpr(ptr) && LLVMGetConstOpcode(ptr) == LLVMGetElementPtr) {
        unsigned n = (unsigned)LLVMGetNumOperands(ptr);
        for (unsigned i = 1; i < n; i++) {
            LLVMValueRef ix = LLVMGetOperand(ptr, i);
            if (!LLVMIsAConstantInt(ix) || nidx == 8)
                return NULL;
            idx[nidx++] = (unsigned)LLVMConstIntGetZExtValue(ix);
        }
        if (nidx == 0 || idx[0] != 0)
            return NULL;
        ptr = strip_casts(LLVMGetOperand(ptr, 0));
    } else {
        idx[nidx++] = 0;
    }
    if (!LLVMIsAGlobalVariable(ptr) || LLVMIsThreadLocal(ptr))
        return NULL;
    LLVMValueRef c = LLVMGetInitializer(ptr);
    for (unsigned i = 1; i < nidx && c; i++) {
        if (!(LLVMIsAConstantStruct(c) || LLVMIsAConstantArray(c)) ||
            (int)idx[i] >= LLVMGetNumOperands(c))
            return NULL;
        c = LLVMGetOperand(c, idx[i]);
    }
    c = c ? strip_casts(c) : NULL;
    return c && LLVMIsAFunction(c) ? c : NULL;
}

static bool is_alloc(struct tr *t, const char *name)
{
    for (const struct ravel__lint_spec *s = ravel__lint_specs_find(t->specs, name); s;
         s = s->next == NONE ? NULL : &t->specs->v[s->next])
        if (s->role == RAVEL__ROLE_ALLOC)
            return true;
    return false;
}

/* The counted loop an array element is reached in. The handle (`&th[i]`,
 * or the value loaded from it) is indexed by a loop variable that
 * mem2reg made a phi of a constant start and of itself plus one, tested
 * against a constant bound (`i < 10`, `i <= 9`, `i != 10`). The index
 * then runs over [lo, hi). Anything else (a bound in a variable, a step
 * of two) has no range, and a join of it counts as joining every
 * element, as before. */
static bool counted_loop(LLVMValueRef h, int64_t *lo, int64_t *hi)
{
    h = strip_casts(h);
    if (h && LLVMIsALoadInst(h))
        h = strip_casts(LLVMGetOperand(h, 0));
    if (!h || !LLVMIsAGetElementPtrInst(h))
        return false;
    LLVMValueRef ix = LLVMGetOperand(h, (unsigned)LLVMGetNumOperands(h) - 1);
    while (ix && (LLVMIsASExtInst(ix) || LLVMIsAZExtInst(ix)))
        ix = LLVMGetOperand(ix, 0);
    if (!ix || !LLVMIsAPHINode(ix) || LLVMCountIncoming(ix) != 2)
        return false;
    bool have_lo = false, have_step = false;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef in = LLVMGetIncomingValue(ix, k);
        if (LLVMIsAConstantInt(in)) {
            *lo = LLVMConstIntGetSExtValue(in);
            have_lo = true;
        } else if (LLVMIsAInstruction(in) && LLVMGetInstructionOpcode(in) == LLVMAdd &&
                   LLVMGetOperand(in, 0) == ix && LLVMIsAConstantInt(LLVMGetOperand(in, 1)) &&
                   LLVMConstIntGetSExtValue(LLVMGetOperand(in, 1)) == 1) {
            have_step = true;
        }
    }
    if (!have_lo || !have_step)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(ix); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef c = LLVMGetUser(u);
        if (!LLVMIsAICmpInst(c) || LLVMGetOperand(c, 0) != ix ||
            !LLVMIsAConstantInt(LLVMGetOperand(c, 1)))
            continue;
        int64_t k = LLVMConstIntGetSExtValue(LLVMGetOperand(c, 1));
        switch (LLVMGetICmpPredicate(c)) {
        case LLVMIntSLT:
        case LLVMIntULT:
        case LLVMIntNE:
            *hi = k;
            return true;
        case LLVMIntSLE:
        case LLVMIntULE:
            *hi = k + 1;
            return true;
        default:
            break;
        }
    }
    return false;
}

static void translate_call(struct tr *t, LLVMValueRef inst)
{
    struct ravel__lint_prog *p = t->prog;
    LLVMValueRef callee = strip_casts(LLVMGetCalledValue(inst));
    uint32_t file, line, col;
    loc_of(t, inst, &file, &line, &col);
    unsigned nargs = LLVMGetNumArgOperands(inst);
    if (callee && LLVMIsAFunction(callee)) {
        size_t len;
        const char *name = LLVMGetValueName2(callee, &len);
        if (len > 5 && !memcmp(name, "llvm.", 5)) {
            /* Intrinsics: memory copies and fills are accesses. */
            if (len >= 11 && (!memcmp(name, "llvm.memcpy", 11) ||
                              !memcmp(name, "llvm.memmove", 12) ||
                              !memcmp(name, "llvm.memset", 11)) && nargs >= 2) {
                uint32_t a[2] = {val_of(t, LLVMGetOperand(inst, 0), 0),
                                 ravel__lint_val1(p, 0)};
                ravel__lint_add_event(p, RAVEL__EV_STORE, NONE, a, 2, file, line, col, 0);
                if (memcmp(name, "llvm.memset", 11) != 0) {
                    uint32_t s = val_of(t, LLVMGetOperand(inst, 1), 0);
                    ravel__lint_add_event(p, RAVEL__EV_LOAD, NONE, &s, 1, file, line,
                                          col, 0);
                }
            }
            return;
        }
    } else if (callee) {
        LLVMValueRef target = resolve_table_call(callee);
        if (target)
            callee = target;
    }
    uint32_t args[256];
    if (nargs > 256)
        nargs = 256;
    for (unsigned i = 0; i < nargs; i++)
        args[i] = val_of(t, LLVMGetOperand(inst, i), 0);
    uint32_t sym = NONE;
    bool alloc = false;
    if (callee && LLVMIsAFunction(callee)) {
        sym = sym_of(t, callee, RAVEL__SYM_FUNC);
        alloc = is_alloc(t, p->syms[sym].name);
    }
    uint32_t ev = ravel__lint_add_event(p, RAVEL__EV_CALL, sym, args, nargs, file, line,
                                        col, 0);
    *pmap_slot(&t->callev, inst, true) = ev;
    /* Function pointers: what an indirect call may reach, what flows into
     * a callee's parameters, which start routine a create is given. */
    if (sym == NONE && callee) {
        uint32_t from[16], n = 0;
        fp_from(t, callee, 0, from, &n, 16);
        for (uint32_t i = 0; i < n; i++)
            ravel__lint_fp_use(p, ev, NONE, from[i]);
    } else if (sym != NONE) {
        for (unsigned i = 0; i < nargs; i++)
            if (fp_value(LLVMGetOperand(inst, i)))
                fp_flow_into(t, LLVMGetOperand(inst, i), cell(t, "p:%u#%u", sym, i));
        bool ranged = false;
        for (const struct ravel__lint_spec *s = ravel__lint_specs_find(t->specs,
                                                                       p->syms[sym].name);
             s; s = s->next == NONE ? NULL : &t->specs->v[s->next]) {
            if ((s->role == RAVEL__ROLE_CREATE || s->role == RAVEL__ROLE_JOIN) && s->nres &&
                s->res[0] < nargs && !ranged) {
                int64_t lo = 0, hi = 0;
                if (counted_loop(LLVMGetOperand(inst, s->res[0]), &lo, &hi)) {
                    ravel__lint_range_add(p, ev, lo, hi);
                    ranged = true;
                }
            }
            if (s->role != RAVEL__ROLE_CREATE || s->nres < 2 || s->res[1] >= nargs)
                continue;
            LLVMValueRef fn = strip_casts(LLVMGetOperand(inst, s->res[1]));
            if (!fn || LLVMIsAFunction(fn) || LLVMIsAArgument(fn))
                continue; /* known here, or resolved in each caller (flow.c) */
            uint32_t from[16], n = 0;
            fp_from(t, fn, 0, from, &n, 16);
            for (uint32_t i = 0; i < n; i++)
                ravel__lint_fp_use(p, ev, s->res[1], from[i]);
        }
    }
    /* The call's result: a fresh object from an allocator, else opaque. */
    uint32_t r = alloc ? ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_ALLOC,
                                                                 t->fid, ev))
                       : opaque(t, inst);
    *pmap_slot(&t->vals, inst, true) = r;
    if (!alloc && sym != NONE && LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMPointerTypeKind)
        ravel__lint_call_ret(p, ev, ravel__lint_val_primary(p, r));
}

static void translate_inst(struct tr *t, LLVMValueRef inst)
{
    struct ravel__lint_prog *p = t->prog;
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    uint32_t file, line, col;
    switch (op) {
    case LLVMCall:
    case LLVMInvoke:
    case LLVMCallBr:
        translate_call(t, inst);
        break;
    case LLVMLoad: {
        uint32_t a = val_of(t, LLVMGetOperand(inst, 0), 0);
        loc_of(t, inst, &file, &line, &col);
        unsigned fl = LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic ? RAVEL__EVF_ATOMIC : 0;
        *pmap_slot(&t->callev, inst, true) =
            ravel__lint_add_event(p, RAVEL__EV_LOAD, NONE, &a, 1, file, line, col, fl);
        break;
    }
    case LLVMStore: {
        if (fp_value(LLVMGetOperand(inst, 0)))
            fp_flow_into(t, LLVMGetOperand(inst, 0), cell_of_addr(t, LLVMGetOperand(inst, 1)));
        uint32_t a[2] = {val_of(t, LLVMGetOperand(inst, 1), 0),
                         val_of(t, LLVMGetOperand(inst, 0), 0)};
        loc_of(t, inst, &file, &line, &col);
        unsigned fl = LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic ? RAVEL__EVF_ATOMIC : 0;
        ravel__lint_add_event(p, RAVEL__EV_STORE, NONE, a, 2, file, line, col, fl);
        break;
    }
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg: {
        uint32_t a = val_of(t, LLVMGetOperand(inst, 0), 0);
        loc_of(t, inst, &file, &line, &col);
        ravel__lint_add_event(p, RAVEL__EV_STORE, NONE, &a, 1, file, line, col,
                              RAVEL__EVF_ATOMIC);
        break;
    }
    case LLVMRet: {
        loc_of(t, inst, &file, &line, &col);
        if (LLVMGetNumOperands(inst) > 0) {
            if (fp_value(LLVMGetOperand(inst, 0)))
                fp_flow_into(t, LLVMGetOperand(inst, 0), cell(t, "r:%u", t->fsym));
            uint32_t a = val_of(t, LLVMGetOperand(inst, 0), 0);
            ravel__lint_add_event(p, RAVEL__EV_RET, NONE, &a, 1, file, line, col, 0);
        } else {
            ravel__lint_add_event(p, RAVEL__EV_RET, NONE, NULL, 0, file, line, col, 0);
        }
        break;
    }
    case LLVMPtrToInt: {
        /* An address turned into a number may go anywhere. */
        uint32_t a = val_of(t, LLVMGetOperand(inst, 0), 0);
        const struct ravel__lint_val *v = &p->vals[a];
        if (ravel__lint_ap_rootkind(p, v->ap[0]) == RAVEL__AP_LOCAL) {
            loc_of(t, inst, &file, &line, &col);
            ravel__lint_add_event(p, RAVEL__EV_CALL, NONE, &a, 1, file, line, col,
                                  RAVEL__EVF_ESCAPE);
        }
        break;
    }
    default:
        break;
    }
}

/* A conditional branch on `call(...) == 0` or `!= 0` (also `!call()`,
 * `call() < 0` is not: only equality with zero is understood), or on a
 * loaded value (`if (G.isInit)`): the call's or load's event, with *ok0 telling whether the first successor is the branch where
 * it returned 0. NONE for any other terminator. This is what makes
 * `if (pthread_mutex_trylock(&m) == 0)` hold the lock on one branch only. */
static uint32_t branch_on_call(struct tr *t, LLVMValueRef term, bool *ok0)
{
    if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term))
        return NONE;
    LLVMValueRef c = LLVMGetCondition(term);
    if (c && LLVMIsATruncInst(c)) { /* a bool loaded and tested */
        LLVMValueRef x = LLVMGetOperand(c, 0);
        uint32_t *slot = LLVMIsALoadInst(x) ? pmap_slot(&t->callev, x, false) : NULL;
        if (!slot)
            return NONE;
        *ok0 = false;
        return *slot;
    }
    if (!c || !LLVMIsAICmpInst(c))
        return NONE;
    LLVMIntPredicate pr = LLVMGetICmpPredicate(c);
    if (pr != LLVMIntEQ && pr != LLVMIntNE)
        return NONE;
    LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
    if (LLVMIsAConstantPointerNull(a) || LLVMIsAConstantPointerNull(b)) {
        /* `if (p)`: p is null along one edge. */
        LLVMValueRef x = LLVMIsAConstantPointerNull(a) ? b : a;
        LLVMValueRef xs = strip_casts(x);
        uint32_t *slot = xs && LLVMIsALoadInst(xs) ? pmap_slot(&t->callev, xs, false) : NULL;
        if (slot) { /* a pointer loaded and tested: the load's result, as below */
            *ok0 = pr == LLVMIntEQ;
            return *slot;
        }
        uint32_t ap = ravel__lint_val_primary(t->prog, val_of(t, x, 0));
        if (ap == 0 || ap >= RAVEL__LINT_ON_NULL)
            return NONE;
        *ok0 = pr == LLVMIntEQ;
        return ap | RAVEL__LINT_ON_NULL;
    }
    if (LLVMIsAConstantInt(a)) {
        LLVMValueRef x = a;
        a = b;
        b = x;
    }
    if (!LLVMIsAConstantInt(b) || LLVMConstIntGetZExtValue(b) != 0)
        return NONE;
    a = strip_casts(a);
    if (a && (LLVMIsAZExtInst(a) || LLVMIsASExtInst(a) || LLVMIsATruncInst(a)))
        a = LLVMGetOperand(a, 0);
    if (!a || !(LLVMIsACallInst(a) || LLVMIsALoadInst(a)))
        return NONE;
    uint32_t *slot = pmap_slot(&t->callev, a, false);
    if (!slot)
        return NONE;
    *ok0 = pr == LLVMIntEQ;
    return *slot;
}

static void translate_function(struct tr *t, LLVMValueRef fn)
{
    struct ravel__lint_prog *p = t->prog;
    uint32_t sym = sym_of(t, fn, RAVEL__SYM_FUNC);
    unsigned nparams = LLVMCountParams(fn);
    unsigned nb = LLVMCountBasicBlocks(fn);
    pmap_clear(&t->vals);
    pmap_clear(&t->blocks);
    pmap_clear(&t->callev);
    t->nextid = 0;
    t->func_file = NONE;
    t->func_line = 0;
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (sp) {
        t->func_line = LLVMDISubprogramGetLine(sp);
        LLVMMetadataRef f = LLVMDIScopeGetFile(sp);
        if (f) {
            unsigned nl = 0, dl = 0;
            const char *name = LLVMDIFileGetFilename(f, &nl);
            const char *dir = LLVMDIFileGetDirectory(f, &dl);
            t->last_name = t->last_dir = NULL;
            t->func_file = file_id(t, dir, dl, name, nl);
        }
    }
    if (t->func_file == NONE)
        t->func_file = ravel__lint_file(p, "<unknown>", "<unknown>");
    t->fid = ravel__lint_func_begin(p, sym, nparams, nb, t->func_file, t->func_line,
                                    t->tu);
    t->fsym = sym;
    for (unsigned i = 0; i < nparams; i++) {
        LLVMValueRef a = LLVMGetParam(fn, i);
        *pmap_slot(&t->vals, a, true) =
            ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_PARAM, i, 0));
        size_t len;
        const char *name = LLVMGetValueName2(a, &len);
        if (name && len) {
            char buf[256];
            snprintf(buf, sizeof buf, "%.*s", (int)len, name);
            ravel__lint_ap_setname(p, ravel__lint_ap_root(p, RAVEL__AP_ARG, t->fid, i), buf);
        }
    }
    uint32_t bi = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        *pmap_slot(&t->blocks, b, true) = bi++;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        ravel__lint_block_begin(p);
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            translate_inst(t, i);
        LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
        if (!term)
            continue;
        unsigned ns = LLVMGetNumSuccessors(term);
        bool ok0 = true;
        uint32_t on = ns == 2 ? branch_on_call(t, term, &ok0) : NONE;
        for (unsigned s = 0; s < ns; s++) {
            uint32_t *slot = pmap_slot(&t->blocks, LLVMGetSuccessor(term, s), false);
            if (slot)
                ravel__lint_add_succ_on(p, *slot, on, s == 0 ? ok0 : !ok0);
        }
    }
    ravel__lint_func_end(p);
}

/* Reads one bitcode file into prog. Returns 0, or -1 with a reason. */
static int read_unit(struct ravel__lint_prog *prog, const struct ravel__lint_specs *specs,
                     const char *bc, uint32_t tu, const char *cwd, char *err,
                     size_t errlen)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(bc, &buf, &msg)) {
        snprintf(err, errlen, "cannot read the bitcode: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return -1;
    }
    LLVMModuleRef mod = NULL;
    if (LLVMParseBitcodeInContext2(ctx, buf, &mod)) {
        snprintf(err, errlen, "cannot parse the bitcode (made by a clang newer "
                              "than LLVM %s?)",
                 ravel__lint_llvm_version());
        LLVMDisposeMemoryBuffer(buf);
        LLVMContextDispose(ctx);
        return -1;
    }
    /* SSA form for locals: mem2reg on every function. */
    LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(mod);
    LLVMAddPromoteMemoryToRegisterPass(fpm);
    LLVMInitializeFunctionPassManager(fpm);
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMRunFunctionPassManager(fpm, f);
    LLVMFinalizeFunctionPassManager(fpm);
    LLVMDisposePassManager(fpm);

    struct tr t;
    memset(&t, 0, sizeof t);
    t.prog = prog;
    t.specs = specs;
    t.mod = mod;
    t.td = LLVMGetModuleDataLayout(mod);
    t.tu = tu;
    t.cwd = cwd;
    collect_field_names(&t);
    fp_globals(&t);
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            translate_function(&t, f);
    pmap_free(&t.gvals);
    pmap_free(&t.vals);
    pmap_free(&t.blocks);
    pmap_free(&t.callev);
    fnames_free(&t.fieldnames);
    LLVMDisposeModule(mod);
    LLVMDisposeMemoryBuffer(buf);
    LLVMContextDispose(ctx);
    return 0;
}

/* ---- compiling ------------------------------------------------------------------ */

static void add_error(struct ravel__lint_front_result *res, const char *fmt, ...)
    RAVEL__PRINTF(2, 3);

static void add_error(struct ravel__lint_front_result *res, const char *fmt, ...)
{
    if (res->nerrors == res->caperrors) {
        uint32_t nc = res->caperrors ? res->caperrors * 2 : 8;
        struct ravel__lint_front_error *ne = realloc(res->errors, nc * sizeof *ne);
        RAVEL__CHECK(ne != NULL);
        res->errors = ne;
        res->caperrors = nc;
    }
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    ravel__sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    res->errors[res->nerrors++].msg = strdup(ravel__sb_str(&sb));
    RAVEL__CHECK(res->errors[res->nerrors - 1].msg != NULL);
    ravel__sb_free(&sb);
}

void ravel__lint_front_result_free(struct ravel__lint_front_result *res)
{
    for (uint32_t i = 0; i < res->nerrors; i++)
        free(res->errors[i].msg);
    free(res->errors);
    memset(res, 0, sizeof *res);
}

/* The first "error:" line of a compiler's output, trimmed. */
static void first_error(const char *path, int status, char *out, size_t len)
{
    size_t n;
    char *text = ravel__read_file(path, STDERR_LIMIT, &n);
    snprintf(out, len, "the compiler exited with status %d", status);
    if (!text)
        return;
    char *line = text, *found = NULL, *last = NULL;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (*line)
            last = line;
        if (!found && strstr(line, "error:"))
            found = line;
        line = nl ? nl + 1 : NULL;
    }
    if (found || last)
        snprintf(out, len, "%s", found ? found : last);
    free(text);
}

static pid_t spawn(char **argv, const char *dir, const char *errpath)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fd >= 0)
        dup2(fd, 2);
    if (nul >= 0) {
        dup2(nul, 0);
        dup2(nul, 1);
    }
    if (chdir(dir) != 0) {
        dprintf(2, "error: cannot enter %s: %s\n", dir, strerror(errno));
        _exit(126);
    }
    execvp(argv[0], argv);
    dprintf(2, "error: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Reads a make-style dependency file: the prerequisites after the colon. */
static void scan_depfile(const char *dep, const char *dir, struct ravel__lint_sources *src,
                         struct ravel__lint_specs *specs,
                         struct ravel__lint_front_result *res)
{
    size_t n;
    char *text = ravel__read_file(dep, 64u << 20, &n);
    if (!text)
        return;
    char *p = strchr(text, ':');
    if (!p) {
        free(text);
        return;
    }
    p++;
    char word[PATH_MAX];
    bool first = true;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
               (*p == '\\' && (p[1] == '\n' || p[1] == '\r')))
            p++;
        size_t w = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\\' && p[1] == ' ')
                p++;
            if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
                break;
            if (w + 1 < sizeof word)
                word[w++] = *p;
            p++;
        }
        word[w] = 0;
        if (!w)
            continue;
        if (first) {
            first = false; /* the source itself, scanned by the caller */
            continue;
        }
        char path[PATH_MAX];
        if (word[0] == '/')
            fmt(path, sizeof path, "%s", word);
        else
            fmt(path, sizeof path, "%s/%s", dir, word);
        char why[512];
        if (ravel__lint_scan_directives(src, path, specs, why, sizeof why) != 0)
            add_error(res, "%s", why);
    }
    free(text);
}

int ravel__lint_front_run(const struct ravel__lint_front_opts *o,
                          const struct ravel__lint_cdb *db,
                          struct ravel__lint_prog *prog,
                          struct ravel__lint_specs *specs,
                          struct ravel__lint_sources *src,
                          struct ravel__lint_front_result *res, char *err,
                          size_t errlen)
{
    memset(res, 0, sizeof *res);
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_MAX];
    fmt(dir, sizeof dir, "%s/ravel-lint-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a temporary directory %s: %s", dir,
                 strerror(errno));
        return -1;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    size_t n = db->n;
    int *status = malloc((n ? n : 1) * sizeof *status);
    pid_t *pids = malloc((n ? n : 1) * sizeof *pids);
    RAVEL__CHECK(status && pids);
    int jobs = o->jobs > 0 ? o->jobs : 1;

    /* Compile everything, `jobs` at a time. */
    double t0 = ravel__now();
    size_t next = 0, running = 0;
    for (size_t i = 0; i < n; i++)
        pids[i] = -1, status[i] = -1;
    while (next < n || running > 0) {
        while (next < n && running < (size_t)jobs) {
            char bc[PATH_MAX], dep[PATH_MAX], errf[PATH_MAX];
            fmt(bc, sizeof bc, "%s/%zu.bc", dir, next);
            fmt(dep, sizeof dep, "%s/%zu.d", dir, next);
            fmt(errf, sizeof errf, "%s/%zu.err", dir, next);
            char **argv = ravel__lint_cdb_argv(&db->v[next], o->clang, bc, dep);
            if (o->verbose) {
                fprintf(stderr, "ravel lint: (cd %s &&", db->v[next].dir);
                for (char **a = argv; *a; a++)
                    fprintf(stderr, " %s", *a);
                fprintf(stderr, ")\n");
            }
            pids[next] = spawn(argv, db->v[next].dir, errf);
            ravel__lint_argv_free(argv);
            if (pids[next] < 0) {
                status[next] = 127;
            } else {
                running++;
            }
            next++;
        }
        if (running == 0)
            continue;
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (pids[i] == pid) {
                status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
                pids[i] = -1;
                running--;
                break;
            }
        }
    }
    res->compile_s = ravel__now() - t0;

    /* Read in database order. */
    t0 = ravel__now();
    for (size_t i = 0; i < n; i++) {
        char bc[PATH_MAX], dep[PATH_MAX], errf[PATH_MAX];
        fmt(bc, sizeof bc, "%s/%zu.bc", dir, i);
        fmt(dep, sizeof dep, "%s/%zu.d", dir, i);
        fmt(errf, sizeof errf, "%s/%zu.err", dir, i);
        const char *file = db->v[i].file;
        if (status[i] != 0) {
            char why[1024];
            first_error(errf, status[i], why, sizeof why);
            add_error(res, "%s: does not compile: %s", file, why);
        } else {
            char why[512];
            if (read_unit(prog, specs, bc, (uint32_t)i, cwd, why, sizeof why) != 0) {
                add_error(res, "%s: %s", file, why);
            } else {
                res->units++;
                if (ravel__lint_scan_directives(src, file, specs, why, sizeof why) != 0)
                    add_error(res, "%s", why);
                scan_depfile(dep, db->v[i].dir, src, specs, res);
            }
        }
        unlink(bc);
        unlink(dep);
        unlink(errf);
    }
    res->read_s = ravel__now() - t0;
    rmdir(dir);
    free(status);
    free(pids);
    return 0;
}
