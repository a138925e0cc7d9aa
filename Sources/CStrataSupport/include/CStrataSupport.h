#ifndef STRATA_SUPPORT_H
#define STRATA_SUPPORT_H

/// The backing data a context hands to the model it is making on this thread (retained), or NULL.
///
/// A C thread-local rather than a pthread key: reading it is a load at a fixed offset from the thread pointer
/// (in an executable, the linker relaxes the access), where `pthread_getspecific` is a call — and a model is
/// made for every fetched row.
extern _Thread_local void *_Nullable strata_row_handoff;

/// The handed-off backing data of this thread, or NULL.
static inline void *_Nullable strata_row_handoff_get(void) { return strata_row_handoff; }

/// Sets the handed-off backing data of this thread.
static inline void strata_row_handoff_set(void *_Nullable data) { strata_row_handoff = data; }

/// The innermost new subclass model being initialized on this thread (a retained Swift object), or NULL: its
/// backing data waits there for the superclass's initial value to adopt it.
extern _Thread_local void *_Nullable strata_subclass_handoff;

/// The pending subclass handoff of this thread, or NULL.
static inline void *_Nullable strata_subclass_handoff_get(void) { return strata_subclass_handoff; }

/// Sets the pending subclass handoff of this thread.
static inline void strata_subclass_handoff_set(void *_Nullable entry) { strata_subclass_handoff = entry; }

#endif
