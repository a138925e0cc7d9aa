#ifndef STRATA_BENCH_SUPPORT_H
#define STRATA_BENCH_SUPPORT_H

/// How many heap blocks this thread has asked for (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign) since it started.
///
/// strata-bench defines those functions itself, counting each call and forwarding it to glibc's allocator
/// (`__libc_malloc` and friends); shared libraries (the Swift runtime, Foundation, SQLite) resolve them to the
/// executable's definitions, so their allocations are counted too. `free` is glibc's, untouched. The count is a
/// per-thread variable: no atomic operation per allocation, and a workload's count is the work of the thread
/// running it.
unsigned long strata_bench_allocations(void);

/// The bytes glibc's allocator has handed out and not taken back: its arenas' blocks in use and the blocks it
/// mapped on their own (`mallinfo2`'s `uordblks` and `hblkhd`). What a program holds, not the pages kept for reuse.
unsigned long strata_bench_heap_bytes_in_use(void);

#endif
