#include "CStrataBenchSupport.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Thread_local unsigned long allocations = 0;

unsigned long strata_bench_allocations(void) { return allocations; }

void *malloc(size_t size) {
    allocations += 1;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations += 1;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocations += 1;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations += 1;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations += 1;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // The checks glibc's own posix_memalign makes: a power of two, a multiple of the pointer size.
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    allocations += 1;
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}
