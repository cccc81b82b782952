// What the word-array filters (Bloom, blocked Bloom, counting Bloom) share
// around their table: the whole state is the header, one parameter block and
// one array of 64-bit words (bits, blocks of 8 words, or 4-bit counters), so
// creating, reading, serializing, clearing and OR-ing tables are the same
// code for the three; each type keeps only how a key maps into the words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "cuckoo_bloom/core/filter_support.h"

namespace cuckoo_bloom {

// `ParamsT` is the type's parameter block (with fields()); it is declared
// before the class so that this base can hold it.
template <typename Derived, typename ParamsT>
class WordArrayFilter : public KeyedFilter<Derived> {
 public:
  using Params = ParamsT;

  // These types take only the shared options (no kOptions: the registry
  // refuses any other option before this is called).
  static Result<Derived> createFrom(const CoreFilterOptions& options) {
    return Derived::create({options.capacity, options.falsePositiveRate, options.seed});
  }

  void clear() {
    words_.clear();
    this->header_.itemCount = 0;
  }
  size_t byteLength() const { return words_.size() * sizeof(uint64_t); }
  const uint64_t* words() const { return words_.data(); }

  // What the byte format holds (KeyedFilter serializes from it): the
  // header, the parameter block and the payload words.
  template <typename Visit>
  auto visitBlob(Visit&& visit) const {
    return visit(this->header_, encodeParams(params_), words_.data(), words_.size());
  }

 protected:
  // A new, empty filter of `wordCount` words: the table limit is checked
  // before anything is allocated (`what` names the class in the error).
  static Result<Derived> allocate(const FilterOptions& options, const Params& params, uint64_t wordCount,
                                  const char* what) {
    Status valid = validateTableBytes(wordCount > UINT64_MAX / 8 ? UINT64_MAX : wordCount * 8, what);
    if (!valid.isOk()) return valid;
    Derived filter;
    valid = allocateWords(filter.words_, wordCount, Derived::kType);
    if (!valid.isOk()) return valid;
    filter.params_ = params;
    filter.header_ = newHeader(Derived::kType, options.capacity, options.falsePositiveRate, options.seed);
    return filter;
  }
  // A filter read from bytes whose parameters the type has checked: exactly
  // `wordCount` payload words, none with a bit set past the first `usedBits`.
  static Result<Derived> adopt(const DecodedBlob& blob, const Params& params, uint64_t wordCount, uint64_t usedBits) {
    Derived filter;
    Status read = readPayloadWords(blob, wordCount, usedBits, filter.words_);
    if (!read.isOk()) return read;
    filter.params_ = params;
    filter.header_ = blob.header;
    return filter;
  }
  // The OR of two tables the caller has checked are alike (same parameters
  // and seed): a key of either is found. count() is then the keys added to either.
  void orWith(const WordArrayFilter& other) {
    for (size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
    this->header_.itemCount += other.header_.itemCount;
  }
  uint64_t popcount() const {
    uint64_t total = 0;
    for (size_t w = 0; w < words_.size(); ++w) total += static_cast<uint64_t>(__builtin_popcountll(words_[w]));
    return total;
  }

  friend struct ConcurrentAccess;
  Params params_;
  WordBuffer words_;
};

}  // namespace cuckoo_bloom
