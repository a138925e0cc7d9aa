#include "CStrataSupport.h"

_Thread_local void *_Nullable strata_row_handoff = 0;
_Thread_local void *_Nullable strata_subclass_handoff = 0;
