#include "cache/cache_stat_dims.h"

#include "cache/cache_types.h"

namespace accelsim::cache {

stats::Dim access_type_dim() {
  std::vector<std::string> labels;
  for (int t = 0; t < kAccessTypes; ++t) labels.push_back(access_type_name(AccessType(t)));
  return stats::category_dim("access_type", labels);
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
