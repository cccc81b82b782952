#include "cuckoo_bloom/status.h"

#include <cmath>

#include "cuckoo_bloom/limits.h"

namespace cuckoo_bloom {

const char* statusCodeName(StatusCode code) {
  switch (code) {
#define CUCKOO_BLOOM_STATUS_CASE(name, number, text) \
  case StatusCode::name:                             \
    return text;
    CUCKOO_BLOOM_STATUS_CODES(CUCKOO_BLOOM_STATUS_CASE)
#undef CUCKOO_BLOOM_STATUS_CASE
  }
  return "UNKNOWN";
}

Status validateCapacityAndRate(uint64_t capacity, double falsePositiveRate) {
  if (capacity == 0) return Status::invalidArgument("capacity must be at least 1");
  if (capacity > kMaxCapacity) {
    return Status::invalidArgument("capacity " + std::to_string(capacity) + " exceeds the maximum " +
                                   std::to_string(kMaxCapacity));
  }
  // Written so that NaN fails too.
  if (!(falsePositiveRate > 0.0 && falsePositiveRate < 1.0)) {
    return Status::invalidArgument("falsePositiveRate must be in (0, 1), got " +
                                   std::to_string(falsePositiveRate));
  }
  return Status::ok();
}

Status validateTableBytes(uint64_t tableBytes, const char* filterName) {
  if (tableBytes > kMaxTableBytes) {
    return Status::invalidArgument(std::string(filterName) + " would need " +
                                   std::to_string(tableBytes) + " bytes, more than the limit of " +
                                   std::to_string(kMaxTableBytes) +
                                   " bytes: lower the capacity or raise the false-positive rate");
  }
  return Status::ok();
}

}  // namespace cuckoo_bloom
