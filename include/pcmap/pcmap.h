/*===- pcmap/pcmap.h - The pcmap runtime's C interface --------------------===*
 *
 * What the compiler knew about a program counter: is it an atomic operation,
 * which one, in which function. The runtime collects the tables that modules
 * (the executable and every shared object) register at start-up and on
 * dlopen, and answers queries from any context.
 *
 * Async-signal safety: every query below (pcmap_is_atomic_pc,
 * pcmap_lookup_atomic, pcmap_lookup_atomic_before, pcmap_lookup_function,
 * pcmap_module_at, pcmap_function_at, pcmap_atomic_at, pcmap_describe_pc,
 * pcmap_get_stats, and the stack map queries) is async-signal-safe
 * and may run in any thread at any time, including in signal handlers and
 * concurrently with dlopen and dlclose: it takes no lock, makes no system
 * call, allocates nothing, writes no shared memory and never waits. An update
 * in progress never makes a query answer "unknown"; once dlclose has
 * returned, no query answers with the unloaded module's entries.
 *
 * The registration callbacks (__pcmap_*_add/_del and upstream's
 * __sanitizer_metadata_*_add/_del) are called by module constructors and
 * destructors; they are not async-signal-safe.
 *
 *===----------------------------------------------------------------------===*/

#ifndef PCMAP_PCMAP_H
#define PCMAP_PCMAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Answers of pcmap_is_atomic_pc. */
#define PCMAP_YES 1
#define PCMAP_NO 0
#define PCMAP_UNKNOWN (-1)

/* Kinds of atomics. UNKNOWN: an upstream (sanmd) atomic, whose kind the
 * upstream format does not record. */
enum pcmap_kind {
  PCMAP_KIND_LOAD = 0,
  PCMAP_KIND_STORE = 1,
  PCMAP_KIND_RMW = 2,
  PCMAP_KIND_CMPXCHG = 3,
  PCMAP_KIND_FENCE = 4,
  PCMAP_KIND_UNKNOWN = 15
};

/* Memory orders (LLVM's AtomicOrdering values). */
enum pcmap_order {
  PCMAP_ORDER_UNKNOWN = 0,
  PCMAP_ORDER_UNORDERED = 1,
  PCMAP_ORDER_RELAXED = 2,
  PCMAP_ORDER_ACQUIRE = 4,
  PCMAP_ORDER_RELEASE = 5,
  PCMAP_ORDER_ACQ_REL = 6,
  PCMAP_ORDER_SEQ_CST = 7
};

/* Read-modify-write operations (docs/FORMAT.md). */
enum pcmap_rmw_op {
  PCMAP_RMW_XCHG = 0,
  PCMAP_RMW_ADD = 1,
  PCMAP_RMW_SUB = 2,
  PCMAP_RMW_AND = 3,
  PCMAP_RMW_NAND = 4,
  PCMAP_RMW_OR = 5,
  PCMAP_RMW_XOR = 6,
  PCMAP_RMW_MAX = 7,
  PCMAP_RMW_MIN = 8,
  PCMAP_RMW_UMAX = 9,
  PCMAP_RMW_UMIN = 10,
  PCMAP_RMW_FADD = 11,
  PCMAP_RMW_FSUB = 12,
  PCMAP_RMW_FMAX = 13,
  PCMAP_RMW_FMIN = 14,
  PCMAP_RMW_UINC_WRAP = 15,
  PCMAP_RMW_UDEC_WRAP = 16,
  PCMAP_RMW_USUB_COND = 17,
  PCMAP_RMW_USUB_SAT = 18,
  PCMAP_RMW_FMAXIMUM = 19,
  PCMAP_RMW_FMINIMUM = 20,
  PCMAP_RMW_OTHER = 63
};

/* pcmap_atomic.flags */
#define PCMAP_ATOMIC_VOLATILE 0x1u
#define PCMAP_ATOMIC_WEAK 0x2u       /* cmpxchg */
#define PCMAP_ATOMIC_UPSTREAM 0x4u   /* from sanmd_atomics: PC only */
#define PCMAP_ATOMIC_INLINE_ASM 0x8u /* an instruction of an inline asm */
/* AArch64 outline atomics (docs/CAPI.md): pc is the first byte of an
 * outline-atomic helper (__aarch64_ldadd8_acq_rel, ...), and the atomic is
 * what the helper does, as its name says; */
#define PCMAP_ATOMIC_OUTLINE_HELPER 0x10u
/* or pc is the call of such a helper, found from the return address, and
 * the atomic is the call site's (the order the source asked for). */
#define PCMAP_ATOMIC_OUTLINE_CALL 0x20u

/* pcmap_function.features */
#define PCMAP_FEATURE_ATOMICS 0x1u /* the atomics table is complete */
#define PCMAP_FEATURE_OPAQUE_ASM                                               \
  0x4u /* not complete: the function holds                                     \
          inline asm pcmap cannot analyse */
/* the code generator may have split the function into fragments
 * (-fbasic-block-sections, -fsplit-machine-functions): see entry */
#define PCMAP_FEATURE_FRAGMENTED 0x8u

/* pcmap_function.source */
#define PCMAP_SOURCE_PCMAP 0x1u    /* a pcmap_functions entry */
#define PCMAP_SOURCE_UPSTREAM 0x2u /* a sanmd_covered entry */
/* an AArch64 outline-atomic helper */
#define PCMAP_SOURCE_OUTLINE_HELPER 0x4u
/* a fragment of a function after its first (found in the module's symbol
 * table): start and size are the fragment's, entry its function's */
#define PCMAP_SOURCE_FRAGMENT 0x8u

struct pcmap_function {
  uintptr_t start;              /* first byte */
  uintptr_t size;               /* bytes */
  uint32_t features;            /* PCMAP_FEATURE_* */
  uint32_t num_atomics;         /* atomic PCs in [start, start + size) */
  uint32_t source;              /* PCMAP_SOURCE_* */
  uint32_t upstream_features;   /* sanmd feature bits (source & UPSTREAM) */
  uint64_t upstream_stack_args; /* sanmd UAR stack-arguments size, or 0 */
  const char *module_path;      /* valid until the module is unloaded */
  uintptr_t module_bias;        /* load bias of the module */
  uint32_t first_atomic; /* index of its first atomic (pcmap_atomic_at) */
  /* The function's entry, the start of its first fragment: start, unless
   * source has PCMAP_SOURCE_FRAGMENT. The fragments of a function are the
   * records with the same entry; features and num_atomics are per fragment
   * (docs/CAPI.md, "struct pcmap_function"). */
  uintptr_t entry;
};

struct pcmap_atomic {
  uintptr_t pc;           /* first byte of the instruction */
  uint32_t kind;          /* enum pcmap_kind */
  uint32_t size;          /* access size in bytes; 0 for fences/unknown */
  uint32_t order;         /* enum pcmap_order; success order for cmpxchg */
  uint32_t failure_order; /* cmpxchg */
  uint32_t rmw_op;        /* enum pcmap_rmw_op, for rmw */
  uint32_t flags;         /* PCMAP_ATOMIC_* */
  struct pcmap_function function; /* the function holding pc, if covered */
  int has_function;               /* 1 if function is filled */
};

struct pcmap_module {
  const char *path; /* "" for the main executable on some systems */
  uintptr_t bias;
  uintptr_t text_start, text_end; /* executable range the tables cover */
  size_t num_functions;
  size_t num_atomics;
};

struct pcmap_stats {
  size_t modules;
  size_t functions;
  size_t atomics;
  size_t table_bytes;       /* memory of the decoded tables and indexes */
  size_t sections;          /* sections registered and accepted */
  size_t sections_rejected; /* malformed sections (rejected whole) */
  size_t entries_rejected;  /* entries in rejected sections */
  size_t generation;        /* changes on every update */
};

/* PCMAP_YES if pc is (one of the instructions of) an atomic, or inside an
 * AArch64 outline-atomic helper; PCMAP_NO if pc is in a function whose
 * atomics are all recorded and pc is not one; PCMAP_UNKNOWN otherwise.
 * Async-signal-safe. */
int pcmap_is_atomic_pc(uintptr_t pc);

/* The atomic at exactly pc. Returns 1 and fills *out, or 0. Async-signal-safe.
 */
int pcmap_lookup_atomic(uintptr_t pc, struct pcmap_atomic *out);

/* The atomic nearest to pc that starts in [pc - max_bytes, pc) in the same
 * function as pc - 1: for watchpoint traps, which report the PC after the
 * access, and for sampling skid. Returns 1 and fills *out, or 0.
 * Async-signal-safe. */
int pcmap_lookup_atomic_before(uintptr_t pc, unsigned max_bytes,
                               struct pcmap_atomic *out);

/* The atomic a signal handler's context (its third argument, a ucontext_t)
 * was executing: pcmap_lookup_atomic at its pc; and where the pc is inside
 * an AArch64 outline-atomic helper and the context holds the return address
 * (the link register: the helpers are leaf functions), the atomic of the
 * call site instead, with flag PCMAP_ATOMIC_OUTLINE_CALL: its function and
 * the order the source asked for (seq_cst where the helper is _acq_rel).
 * Returns 1 and fills *out, or 0. Async-signal-safe. */
int pcmap_lookup_atomic_in_context(const void *ucontext,
                                   struct pcmap_atomic *out);

/* The covered function holding pc. Returns 1 and fills *out, or 0.
 * Async-signal-safe. */
int pcmap_lookup_function(uintptr_t pc, struct pcmap_function *out);

/* Iteration: the index-th module with tables, and the index-th function of
 * the module holding pc (in address order). Return 1 and fill *out, or 0 past
 * the end. Async-signal-safe; a concurrent dlopen or dlclose may shift
 * indexes between calls. */
int pcmap_module_at(size_t index, struct pcmap_module *out);
int pcmap_function_at(uintptr_t module_text_start, size_t index,
                      struct pcmap_function *out);
/* The index-th atomic of the module, in address order; a function's atomics
 * are first_atomic to first_atomic + num_atomics - 1. */
int pcmap_atomic_at(uintptr_t module_text_start, size_t index,
                    struct pcmap_atomic *out);

/* Describes pc in one line, as the fault reporter does: module+offset,
 * function+offset, and what pc is (which atomic, "not atomic (covered)" or
 * "no pcmap metadata"). Writes at most len bytes including the terminating
 * NUL and returns the length written (without it). Async-signal-safe. */
size_t pcmap_describe_pc(uintptr_t pc, char *buf, size_t len);

/* The atomic tracer (PCMAP_OPTIONS=trace_atomics=1): writes its report now,
 * as it does at exit. Not async-signal-safe. */
void pcmap_trace_dump(void);

/* Counters. Async-signal-safe. */
void pcmap_get_stats(struct pcmap_stats *out);

/*===----------------------------------------------------------------------===*
 * Stack maps (LLVM's .llvm_stackmaps: llvm.experimental.stackmap,
 * llvm.experimental.patchpoint.*, gc.statepoint)
 *
 * The runtime finds the stack map section of every loaded module (the
 * executable and each shared object) by itself, copies the records and
 * indexes them by absolute PC (function address + instruction offset). It
 * does so at the first call below, not at start-up, so that a process that
 * never asks reads no file: that first call reads the section headers of
 * the loaded objects' files (open, pread, close) and allocates the tables.
 * From then on every dlopen and dlclose (which the runtime intercepts)
 * updates them; once dlclose has returned, no query answers with the
 * unloaded module's records. Every function below is async-signal-safe,
 * like the queries above; after the first, they take no lock, make no
 * system call and allocate nothing, and an update in progress never makes
 * them miss. (A first call from a signal handler that interrupted this
 * thread's own registration answers from the tables found so far.)
 *===----------------------------------------------------------------------===*/

/* pcmap_stackmap_record.call_kind: the first values of the one numbering of
 * call-site kinds, pcmap::stackmap::CallSiteKind in pcmap/StackMap.h */
enum pcmap_stackmap_call_kind {
  PCMAP_STACKMAP_CALL_NONE = 0, /* no call found at the record */
  PCMAP_STACKMAP_CALL = 1,      /* a call ends at pc (pc is its return
                                   address): call_size is its length */
  PCMAP_STACKMAP_PATCHPOINT = 2 /* a patchable region starts at pc:
                                   call_size is its size */
};

/* pcmap_stackmap_location.kind (LLVM's location kinds) */
enum pcmap_stackmap_location_kind {
  PCMAP_STACKMAP_REGISTER = 1,      /* value in register dwarf_reg */
  PCMAP_STACKMAP_DIRECT = 2,        /* value is dwarf_reg + offset */
  PCMAP_STACKMAP_INDIRECT = 3,      /* value at [dwarf_reg + offset] */
  PCMAP_STACKMAP_CONSTANT = 4,      /* value is value (sign-extended) */
  PCMAP_STACKMAP_CONSTANT_INDEX = 5 /* value is value (from the constants) */
};

/* pcmap_stackmap_function.size_source: where start and size come from */
#define PCMAP_STACKMAP_SIZE_PCMAP 1   /* pcmap's function table */
#define PCMAP_STACKMAP_SIZE_SYMBOL 2  /* the module's ELF symbol table */
#define PCMAP_STACKMAP_SIZE_RECORDS 3 /* neither: up to its last record */

/* pcmap_stackmap_function.stack_size when it is not known statically */
#define PCMAP_STACKMAP_DYNAMIC_STACK_SIZE UINT64_MAX

struct pcmap_stackmap_function {
  uintptr_t start;         /* first byte of the function */
  uint64_t size;           /* bytes */
  uint32_t size_source;    /* PCMAP_STACKMAP_SIZE_* */
  uint32_t version;        /* of the module's stack map section */
  uintptr_t address;       /* the function's address in the section */
  uint64_t stack_size;     /* frame size, or PCMAP_STACKMAP_DYNAMIC_... */
  uint64_t num_records;    /* records of the function */
  const char *module_path; /* valid until the module is unloaded */
  uintptr_t module_bias;
};

struct pcmap_stackmap_record {
  uintptr_t pc;                /* function address + instruction_offset */
  uint64_t id;                 /* the intrinsic's ID */
  uint32_t instruction_offset; /* from the function's address */
  uint16_t flags;              /* reserved (0 from LLVM) */
  uint16_t num_locations;
  uint16_t num_live_outs;
  uint8_t call_kind;     /* enum pcmap_stackmap_call_kind */
  uint32_t call_size;    /* bytes; see call_kind */
  uint32_t record_index; /* in the module's section */
  struct pcmap_stackmap_function function;
  uint64_t opaque[2]; /* for the accessors below */
};

struct pcmap_stackmap_location {
  uint32_t kind;      /* enum pcmap_stackmap_location_kind */
  uint32_t size;      /* bytes */
  uint32_t dwarf_reg; /* DWARF register number */
  int32_t offset;     /* DIRECT, INDIRECT; the raw field otherwise */
  uint64_t value;     /* CONSTANT, CONSTANT_INDEX: the constant */
};

struct pcmap_stackmap_live_out {
  uint32_t dwarf_reg;
  uint32_t size; /* bytes */
};

struct pcmap_stackmap_stats {
  size_t modules; /* modules with stack maps */
  size_t functions;
  size_t records;
  size_t table_bytes;
  size_t sections_rejected; /* malformed sections (rejected whole) */
  size_t generation;        /* changes on every update */
};

/* The stack map record at exactly pc (a return address for calls and
 * statepoints; the start of the region for patchpoints). When several
 * records share pc, the first in section order. Returns 1 and fills *out,
 * or 0. */
int pcmap_lookup_stackmap(uintptr_t pc, struct pcmap_stackmap_record *out);

/* The function with stack maps holding pc: its bounds, frame size and
 * number of records. Returns 1 and fills *out, or 0. */
int pcmap_lookup_stackmap_function(uintptr_t pc,
                                   struct pcmap_stackmap_function *out);

/* Location or live-out i of a record. Return 1 and fill *out, or 0 when i
 * is out of range or the record's module has been unloaded since the
 * lookup (its memory is never read again then). */
int pcmap_stackmap_location(const struct pcmap_stackmap_record *record,
                            unsigned i, struct pcmap_stackmap_location *out);
int pcmap_stackmap_live_out(const struct pcmap_stackmap_record *record,
                            unsigned i, struct pcmap_stackmap_live_out *out);

void pcmap_get_stackmap_stats(struct pcmap_stackmap_stats *out);

/* A program may define this to set its own option defaults, in the syntax
 * of PCMAP_OPTIONS, which overrides them (docs/Options.md). */
const char *__pcmap_default_options(void);

/* Registration (called by the constructors the compiler emits). The
 * constructor of a module registers its pcmap sections of one version in
 * one call (null bounds: the module has no such section), so that the
 * module's table is built once; the one-section callbacks are for other
 * producers. */
void __pcmap_sections_add(uint32_t version, const char *atomics_start,
                          const char *atomics_stop, const char *functions_start,
                          const char *functions_stop);
void __pcmap_sections_del(uint32_t version, const char *atomics_start,
                          const char *atomics_stop, const char *functions_start,
                          const char *functions_stop);
void __pcmap_atomics_add(uint32_t version, const char *start, const char *stop);
void __pcmap_atomics_del(uint32_t version, const char *start, const char *stop);
void __pcmap_functions_add(uint32_t version, const char *start,
                           const char *stop);
void __pcmap_functions_del(uint32_t version, const char *start,
                           const char *stop);
void __sanitizer_metadata_atomics_add(uint32_t version, const char *start,
                                      const char *stop);
void __sanitizer_metadata_atomics_del(uint32_t version, const char *start,
                                      const char *stop);
void __sanitizer_metadata_covered_add(uint32_t version, const char *start,
                                      const char *stop);
void __sanitizer_metadata_covered_del(uint32_t version, const char *start,
                                      const char *stop);
/* The AArch64 outline-atomic helpers a module links, in the order of
 * include/pcmap/Format.h (null for those it does not); called by the object
 * the drivers link into every AArch64 module. */
void __pcmap_outline_atomics_add(const void *const *helpers, uint32_t count);
void __pcmap_outline_atomics_del(const void *const *helpers, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif /* PCMAP_PCMAP_H */
