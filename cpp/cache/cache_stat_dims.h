// The cache vocabulary as counter dimensions: access type / outcome / fail
// reason labels as the reports spell them (GLOBAL_ACC_R, ...: the names
// researchers know from GPGPU-Sim's logs). Every cache family (L1D, L1I, L1C,
// L2) uses them, whichever model counts it.
#pragma once
#include "stats/counter_registry.h"

namespace accelsim::cache {

stats::Dim access_type_dim();
stats::Dim outcome_dim();
stats::Dim fail_reason_dim();

}  // namespace accelsim::cache
