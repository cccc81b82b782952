// A zero-initialised array of uint64 words that reports allocation failure
// instead of throwing or aborting: in wasm a failed std::vector allocation
// would abort the whole module, so filters allocate through this and turn a
// null into a Status the caller can act on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace cuckoo_bloom {

class WordBuffer {
 public:
  WordBuffer() = default;
  ~WordBuffer() { std::free(words_); }
  WordBuffer(const WordBuffer&) = delete;
  WordBuffer& operator=(const WordBuffer&) = delete;
  WordBuffer(WordBuffer&& other) noexcept
      : words_(std::exchange(other.words_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  WordBuffer& operator=(WordBuffer&& other) noexcept {
    if (this != &other) {
      std::free(words_);
      words_ = std::exchange(other.words_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  // Allocates `wordCount` zeroed words; false when memory is not available.
  bool allocate(size_t wordCount) {
    std::free(words_);
    size_ = 0;
    words_ = static_cast<uint64_t*>(std::calloc(wordCount == 0 ? 1 : wordCount, sizeof(uint64_t)));
    if (words_ == nullptr) return false;
    size_ = wordCount;
    return true;
  }
  void clear() {
    if (size_ > 0) std::memset(words_, 0, size_ * sizeof(uint64_t));
  }

  uint64_t* data() { return words_; }
  const uint64_t* data() const { return words_; }
  size_t size() const { return size_; }
  uint64_t& operator[](size_t index) { return words_[index]; }
  uint64_t operator[](size_t index) const { return words_[index]; }

 private:
  uint64_t* words_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cuckoo_bloom
