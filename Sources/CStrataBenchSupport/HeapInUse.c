#include "CStrataBenchSupport.h"

#include <malloc.h>

unsigned long strata_bench_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (unsigned long)(info.uordblks + info.hblkhd);
}
