/*
 * modules.c - which loaded modules hold the program's instrumented code,
 * and where their globals and thread-local data live.
 *
 * A module holds instrumented code when its dynamic symbol table imports
 * __tsan_init (every object compiled with -fsanitize=thread calls it from
 * a constructor). That is read from the module's ELF file, not guessed
 * from the caller of __tsan_init: compilers turn that call into a tail
 * call, and the "caller" is then the C library's startup code. The main
 * executable is always registered. Modules loaded later (dlopen) are found
 * when their constructors call __tsan_init. For each module ravel records:
 *   - its code ranges: an allocation or fopen whose caller is here is the
 *     program's own (heap.c, intercept/libc.c);
 *   - its writable data (.data, .bss: the PT_LOAD segments with write
 *     permission, minus the part made read-only after relocation,
 *     PT_GNU_RELRO, and minus the lazy-binding GOT): the program's
 *     globals, saved and restored between executions (reset.c);
 *   - its thread-local-storage image (PT_TLS), to give a pooled OS thread
 *     fresh `_Thread_local` variables for each program thread.
 */
#include "../rt.h"

#include "../../report/elf.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#define MAX_MODULES 32
/* Modules looked at so far (instrumented or not), to scan only new ones. */
#define MAX_SEEN 256
#define MAX_SEGS 4

struct seg {
    uintptr_t lo, hi;
};

struct module {
    uintptr_t bias;
    struct seg code[MAX_SEGS];
    unsigned ncode;
    struct seg data[MAX_SEGS];
    unsigned ndata;
    /* TLS image and where this module's block sits relative to the thread
     * pointer (the same in every thread for initially loaded modules). */
    const void *tls_image;
    size_t tls_filesz, tls_memsz;
    intptr_t tls_delta;
    bool has_tls;
};

static struct module mods[MAX_MODULES];
static unsigned nmods;

static uintptr_t thread_pointer(void)
{
    uintptr_t tp;
#if defined(__x86_64__)
    __asm__("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
    __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#else
#error "ravel: thread pointer access not implemented for this architecture"
#endif
    return tp;
}

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct module *m = data;
    if (info->dlpi_addr != m->bias)
        return 0;
    uintptr_t relro_lo = 0, relro_hi = 0, got_lo = 0, got_hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_GNU_RELRO) {
            relro_lo = info->dlpi_addr + p->p_vaddr;
            relro_hi = relro_lo + p->p_memsz;
        }
        if (p->p_type == PT_DYNAMIC) {
            /* The lazy-binding GOT (.got.plt): restoring it would undo
             * symbol resolution and pay for it again every execution. */
            const ElfW(Dyn) *d =
                (const ElfW(Dyn) *)(info->dlpi_addr + p->p_vaddr);
            uintptr_t pltgot = 0, pltrelsz = 0;
            for (; d->d_tag != DT_NULL; d++) {
                if (d->d_tag == DT_PLTGOT)
                    pltgot = d->d_un.d_ptr;
                else if (d->d_tag == DT_PLTRELSZ)
                    pltrelsz = d->d_un.d_val;
            }
            if (pltgot) {
                /* d_ptr is relocated by the loader in the main program
                 * and libraries alike on glibc. */
                got_lo = pltgot;
                got_hi = pltgot + (3 + pltrelsz / sizeof(ElfW(Rela))) *
                                      sizeof(void *);
            }
        }
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr, hi = lo + p->p_memsz;
        if (p->p_type == PT_LOAD && (p->p_flags & PF_X) &&
            m->ncode < MAX_SEGS) {
            m->code[m->ncode++] = (struct seg){lo, hi};
        } else if (p->p_type == PT_LOAD && (p->p_flags & PF_W) &&
                   m->ndata < MAX_SEGS) {
            /* RELRO is mprotected read-only after relocation: skip it,
             * rounding its end up to the page the loader protected. */
            if (relro_hi > lo && relro_lo < hi) {
                uintptr_t end = (relro_hi + 4095) & ~(uintptr_t)4095;
                if (end > lo)
                    lo = end;
            }
            if (got_hi > lo && got_lo < hi) {
                /* Cut the GOT out: keep what lies before and after it. */
                if (got_lo > lo && m->ndata < MAX_SEGS)
                    m->data[m->ndata++] = (struct seg){lo, got_lo};
                lo = got_hi > lo ? got_hi : lo;
            }
            if (lo < hi && m->ndata < MAX_SEGS)
                m->data[m->ndata++] = (struct seg){lo, hi};
        } else if (p->p_type == PT_TLS && info->dlpi_tls_data) {
            m->has_tls = true;
            m->tls_image = (const void *)(info->dlpi_addr + p->p_vaddr);
            m->tls_filesz = p->p_filesz;
            m->tls_memsz = p->p_memsz;
            m->tls_delta =
                (intptr_t)((uintptr_t)info->dlpi_tls_data - thread_pointer());
        }
    }
    return 1;
}

static void add_module(uintptr_t bias)
{
    for (unsigned i = 0; i < nmods; i++)
        if (mods[i].bias == bias)
            return;
    if (nmods >= MAX_MODULES)
        return;
    struct module *m = &mods[nmods];
    memset(m, 0, sizeof *m);
    m->bias = bias;
    dl_iterate_phdr(phdr_cb, m);
    if (m->ncode)
        nmods++;
}

/* Code ranges of SV-COMP's __VERIFIER_atomic_* functions and of the
 * program's own reach_error (SV-COMP's error function). */
#define MAX_SPECIAL_FNS 64
static struct {
    struct seg seg;
    int kind; /* RAVEL__FN_* */
} special_fns[MAX_SPECIAL_FNS];
unsigned ravel__nspecial_fns;

static void find_special_functions(const struct ravel__elf *e, uintptr_t bias)
{
    static const char prefix[] = "__VERIFIER_atomic_";
    for (size_t i = 0; i < e->nsyms && ravel__nspecial_fns < MAX_SPECIAL_FNS; i++) {
        const struct ravel__elf_sym *s = &e->syms[i];
        if (!s->is_func || !s->size)
            continue;
        int kind = RAVEL__FN_NONE;
        if (!strncmp(s->name, prefix, sizeof prefix - 1) &&
            strcmp(s->name, "__VERIFIER_atomic_begin") &&
            strcmp(s->name, "__VERIFIER_atomic_end"))
            kind = RAVEL__FN_ATOMIC;
        else if (!strcmp(s->name, "reach_error"))
            kind = RAVEL__FN_REACH_ERROR;
        if (kind == RAVEL__FN_NONE)
            continue;
        special_fns[ravel__nspecial_fns].seg =
            (struct seg){bias + s->value, bias + s->value + s->size};
        special_fns[ravel__nspecial_fns++].kind = kind;
        RAVEL__HOOKS_ABI.special_fns = true; /* entries ask (tsan.c) */
    }
}

int ravel__pc_special_function(uint64_t pc)
{
    for (unsigned i = 0; i < ravel__nspecial_fns; i++)
        if (pc >= special_fns[i].seg.lo && pc < special_fns[i].seg.hi)
            return special_fns[i].kind;
    return RAVEL__FN_NONE;
}

static uintptr_t seen[MAX_SEEN];
static unsigned nseen;
/* Modules whose code calls the hooks (imports __tsan_init). The main
 * program counts as instrumented without (its code is what ravel
 * explores), but one built by gcc with -flto and no -fsanitize=thread at
 * its link has no hook at all. */
static unsigned nhooked;

struct candidate {
    uintptr_t bias;
    char path[PATH_MAX];
    bool main;
};

/* Candidates found by one scan (static: no allocation while the loader's
 * lock is held). */
static struct {
    struct candidate c[MAX_SEEN];
    unsigned n;
} found;

static int collect_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    if (found.n >= MAX_SEEN)
        return 1;
    for (unsigned i = 0; i < nseen; i++)
        if (seen[i] == info->dlpi_addr)
            return 0;
    /* dl_iterate_phdr reports the main program first. */
    bool is_main = nseen == 0 && found.n == 0;
    if (!is_main && (!info->dlpi_name || !info->dlpi_name[0]))
        return 0; /* the vDSO */
    struct candidate *c = &found.c[found.n++];
    c->bias = info->dlpi_addr;
    c->main = is_main;
    snprintf(c->path, sizeof c->path, "%s",
             is_main ? "/proc/self/exe" : info->dlpi_name);
    return 0;
}

/* Looks at modules not seen before; registers the instrumented ones. */
static void scan(void)
{
    found.n = 0;
    dl_iterate_phdr(collect_cb, NULL);
    for (unsigned i = 0; i < found.n; i++) {
        const struct candidate *c = &found.c[i];
        if (nseen < MAX_SEEN)
            seen[nseen++] = c->bias;
        bool instrumented = c->main;
        struct ravel__elf e;
        char err[128];
        if (ravel__elf_open(c->path, &e, err, sizeof err) == 0) {
            bool hooked = ravel__elf_imports(&e, "__tsan_init");
            nhooked += hooked;
            instrumented = instrumented || hooked;
            if (instrumented) {
                find_special_functions(&e, c->bias);
                ravel__snap_check_imports(&e);
            }
            ravel__elf_close(&e);
        } else if (instrumented) {
            ravel__snap_check_imports(NULL); /* imports unknown */
        }
        if (instrumented)
            add_module(c->bias);
    }
}

void ravel__modules_register(uint64_t pc)
{
    (void)pc;
    scan();
}

void ravel__modules_scan(void)
{
    scan();
}

unsigned ravel__modules_count(void)
{
    return nmods;
}

unsigned ravel__modules_hooked(void)
{
    return nhooked;
}

bool ravel__pc_instrumented(uint64_t pc)
{
    for (unsigned i = 0; i < nmods; i++)
        for (unsigned k = 0; k < mods[i].ncode; k++)
            if (pc >= mods[i].code[k].lo && pc < mods[i].code[k].hi)
                return true;
    return false;
}

bool ravel__pc_to_module(uint64_t pc, uint32_t *module, uint64_t *off)
{
    for (unsigned i = 0; i < nmods; i++)
        for (unsigned k = 0; k < mods[i].ncode; k++)
            if (pc >= mods[i].code[k].lo && pc < mods[i].code[k].hi) {
                *module = i;
                *off = pc - mods[i].bias;
                return true;
            }
    return false;
}

bool ravel__pc_from_module(uint32_t module, uint64_t off, uint64_t *pc)
{
    if (module >= nmods)
        return false;
    *pc = mods[module].bias + off;
    return ravel__pc_instrumented(*pc);
}

bool ravel__addr_from_global(uint64_t where, uint64_t *addr)
{
    uint32_t i = (uint32_t)(where >> 56), k = (uint32_t)(where >> 48) & 0xff;
    uint64_t off = where & ((1ULL << 48) - 1);
    if (i >= nmods || k >= mods[i].ndata ||
        off >= mods[i].data[k].hi - mods[i].data[k].lo)
        return false;
    *addr = mods[i].data[k].lo + off;
    return true;
}

bool ravel__addr_global(uint64_t addr, uint64_t *where)
{
    for (unsigned i = 0; i < nmods; i++)
        for (unsigned k = 0; k < mods[i].ndata; k++)
            if (addr >= mods[i].data[k].lo && addr < mods[i].data[k].hi) {
                /* Module, segment and offset: the same in every process,
                 * whatever address-space randomisation did. */
                *where = (uint64_t)i << 56 | (uint64_t)k << 48 |
                         (addr - mods[i].data[k].lo);
                return true;
            }
    return false;
}

/* ---- used by reset.c --------------------------------------------------- */

unsigned ravel__modules_data(uintptr_t *lo, uintptr_t *hi, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nmods; i++)
        for (unsigned k = 0; k < mods[i].ndata && n < max; k++) {
            lo[n] = mods[i].data[k].lo;
            hi[n] = mods[i].data[k].hi;
            n++;
        }
    return n;
}

void ravel__reset_thread_tls(void)
{
    uintptr_t tp = thread_pointer();
    for (unsigned i = 0; i < nmods; i++) {
        const struct module *m = &mods[i];
        if (!m->has_tls)
            continue;
        char *block = (char *)(tp + (uintptr_t)m->tls_delta);
        memcpy(block, m->tls_image, m->tls_filesz);
        memset(block + m->tls_filesz, 0, m->tls_memsz - m->tls_filesz);
    }
}

/* Every loaded module's static TLS block, as an offset from the thread
 * pointer (the C library's errno included): what the race detector must
 * forget when the same addresses start holding another thread's
 * variables. Collected once, at the first call. */
#define MAX_TLS_BLOCKS 64
static struct {
    intptr_t delta;
    size_t size;
} tls_blocks[MAX_TLS_BLOCKS];
static unsigned ntls_blocks;
static bool tls_blocks_done;

static int tls_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_TLS && info->dlpi_tls_data &&
            ntls_blocks < MAX_TLS_BLOCKS) {
            tls_blocks[ntls_blocks].delta = (intptr_t)(
                (uintptr_t)info->dlpi_tls_data - thread_pointer());
            tls_blocks[ntls_blocks].size = p->p_memsz;
            ntls_blocks++;
        }
    }
    return 0;
}

void ravel__race_forget_tls(void)
{
    if (!tls_blocks_done) {
        dl_iterate_phdr(tls_cb, NULL);
        tls_blocks_done = true;
    }
    uintptr_t tp = thread_pointer();
    for (unsigned i = 0; i < ntls_blocks; i++)
        ravel__race_forget((const void *)(tp + (uintptr_t)tls_blocks[i].delta),
                           tls_blocks[i].size);
}

size_t ravel__tls_total(void)
{
    size_t n = 0;
    for (unsigned i = 0; i < nmods; i++)
        if (mods[i].has_tls)
            n += mods[i].tls_memsz;
    return n;
}

void ravel__tls_save(void *buf)
{
    uintptr_t tp = thread_pointer();
    char *p = buf;
    for (unsigned i = 0; i < nmods; i++) {
        if (!mods[i].has_tls)
            continue;
        memcpy(p, (char *)(tp + (uintptr_t)mods[i].tls_delta),
               mods[i].tls_memsz);
        p += mods[i].tls_memsz;
    }
}

void ravel__tls_load(const void *buf)
{
    uintptr_t tp = thread_pointer();
    const char *p = buf;
    for (unsigned i = 0; i < nmods; i++) {
        if (!mods[i].has_tls)
            continue;
        memcpy((char *)(tp + (uintptr_t)mods[i].tls_delta), p,
               mods[i].tls_memsz);
        p += mods[i].tls_memsz;
    }
}
