// A zero-initialised array of uint64 words that reports allocation failure
// instead of throwing or aborting: in wasm a failed std::vector allocation
// would abort the whole module, so filters allocate through this and turn a
// null into a Status the caller can act on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

namespace cuckoo_bloom {

// Frees what std::malloc or std::calloc gave: the deleter of every block the
// core allocates without throwing (MallocBlock<T>), so each owner moves it and
// never copies it, with no destructor of its own.
struct FreeDeleter {
  void operator()(void* block) const { std::free(block); }
};
template <typename T>
using MallocBlock = std::unique_ptr<T, FreeDeleter>;

class WordBuffer {
 public:
  WordBuffer() = default;
  WordBuffer(WordBuffer&& other) noexcept
      : allocation_(std::move(other.allocation_)),
        words_(std::exchange(other.words_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}
  WordBuffer& operator=(WordBuffer&& other) noexcept {
    if (this != &other) {
      allocation_ = std::move(other.allocation_);
      words_ = std::exchange(other.words_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  // Allocates `wordCount` zeroed words; false when memory is not available.
  bool allocate(size_t wordCount) {
    allocation_.reset();
    words_ = nullptr;
    size_ = 0;
    allocation_.reset(std::calloc(wordCount == 0 ? 1 : wordCount, sizeof(uint64_t)));
    if (allocation_ == nullptr) return false;
    words_ = static_cast<uint64_t*>(allocation_.get());
    size_ = wordCount;
    return true;
  }

  // Takes over a std::malloc'd `allocation` whose words lie at `words`,
  // inside it (a blob read in place: BlobBuffer). Frees it when done.
  void adopt(MallocBlock<void> allocation, uint64_t* words, size_t wordCount) {
    allocation_ = std::move(allocation);
    words_ = words;
    size_ = wordCount;
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
  MallocBlock<void> allocation_;  // what to free: words_ or a block around it
  uint64_t* words_ = nullptr;
  size_t size_ = 0;
};

// The bytes of a serialized blob in one allocation placed so that its
// payload starts 8-byte aligned. Reading it (deserializeFilter(BlobBuffer&))
// lets a word-array filter keep the allocation as its table instead of
// copying the payload: on a little-endian host the payload's bytes are the
// words. In wasm that is what lets a filter of 1 GiB read back within the
// 2 GiB memory limit (the bytes, then a table of the same size, would not).
class BlobBuffer {
 public:
  // Room for `length` bytes whose byte `payloadOffset` lands 8-aligned; false when memory is not available.
  bool allocate(size_t length, size_t payloadOffset) {
    allocation_.reset(std::malloc(length + 8));
    if (allocation_ == nullptr) return false;
    const size_t misalignment = (reinterpret_cast<uintptr_t>(allocation_.get()) + payloadOffset) % 8;
    data_ = static_cast<uint8_t*>(allocation_.get()) + (8 - misalignment) % 8;
    length_ = length;
    return true;
  }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t length() const { return length_; }

  // Hands the allocation to `words` when `payload` is `wordCount` aligned
  // words inside this buffer (and the host is little-endian); false
  // otherwise, and the caller copies.
  bool adoptInto(const uint8_t* payload, size_t wordCount, WordBuffer& words) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (allocation_ == nullptr || payload < data_ || reinterpret_cast<uintptr_t>(payload) % 8 != 0) return false;
    if (static_cast<size_t>(payload - data_) > length_ || wordCount > (length_ - (payload - data_)) / 8) return false;
    words.adopt(std::move(allocation_), reinterpret_cast<uint64_t*>(const_cast<uint8_t*>(payload)),
                wordCount);
    return true;
#else
    (void)payload, (void)wordCount, (void)words;
    return false;
#endif
  }

 private:
  MallocBlock<void> allocation_;
  uint8_t* data_ = nullptr;
  size_t length_ = 0;
};

}  // namespace cuckoo_bloom
