#include "cache/cache_stat_dims.h"

#include "cache/cache_types.h"

namespace accelsim::cache {

stats::Dim access_type_dim() {
  // Same order as AccessType.
  return stats::category_dim("access_type", {"GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R",
                                      "GLOBAL_ACC_W", "LOCAL_ACC_W", "L1_WRBK_ACC", "L2_WRBK_ACC",
                                      "INST_ACC_R", "L1_WR_ALLOC_R", "L2_WR_ALLOC_R"});
}

stats::Dim outcome_dim() {
  std::vector<std::string> labels;
  for (int o = 0; o < kOutcomes; ++o) labels.push_back(outcome_name(Outcome(o)));
  return stats::category_dim("outcome", labels);
}

stats::Dim fail_reason_dim() {
  std::vector<std::string> labels;
  for (int r = 0; r < kFailReasons; ++r)
    labels.push_back(fail_reason_name(FailReason(r)));
  return stats::category_dim("fail_reason", labels);
}

}  // namespace accelsim::cache
