#include "cuckoo_bloom/core/status.h"

#include <cmath>

#include "cuckoo_bloom/core/limits.h"

namespace cuckoo_bloom {

const char* statusCodeName(StatusCode code) {
  switch (code) {
#define CUCKOO_BLOOM_STATUS_CASE(name, number, text, ...) \
  case StatusCode::name:                                  \
    return text;
    CUCKOO_BLOOM_STATUS_CODES(CUCKOO_BLOOM_STATUS_CASE)
#undef CUCKOO_BLOOM_STATUS_CASE
  }
  return "UNKNOWN";
}

std::string formatNumber(double value) {
  // Hand-rolled so the wasm build links no printf machinery (std::to_string
  // of a double is snprintf, several KiB of wasm for two error messages):
  // up to 6 decimals, or d.ddde+-x when tiny or huge.
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  std::string out = value < 0 ? "-" : "";
  value = std::fabs(value);
  int exponent = 0;
  if (value != 0.0 && (value < 1e-4 || value >= 1e15)) {
    exponent = static_cast<int>(std::floor(std::log10(value)));
    value /= std::pow(10.0, exponent);
  }
  uint64_t scaled = static_cast<uint64_t>(std::llround(value * 1e6));
  if (exponent != 0 && scaled >= 10000000) scaled /= 10, ++exponent;  // 9.9999999e-5 rounds to 1e-4
  out += std::to_string(scaled / 1000000);
  std::string fraction = std::to_string(1000000 + scaled % 1000000).substr(1);  // six digits
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) out += "." + fraction;
  if (exponent != 0) out += "e" + std::to_string(exponent);
  return out;
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
                                   formatNumber(falsePositiveRate));
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
