#include "CStrataSupport.h"

_Thread_local void *_Nullable strata_row_handoff = 0;
