// Key operations on any registered filter type, through AnyFilter, against an
// exact model (a multiset of the keys put in).
//
// Input:
//   byte 0      the type: registeredFilterTypes()[byte % count]
//   config      bit 7 = raw options mode, else bits 0-5 = capacity - 1 (1..64)
//   options     types without cuckoo options: rate index, seed byte;
//               types taking them: geometry (bucket size index, maxKicks index
//               << 2, rate index << 5), fingerprint-bits selector, seed byte.
//               Raw mode: capacity - 1, rate (f64), [bucketSize u8,
//               fingerprintBits u8, maxKicks u32,] seed u64; config bits 0-1
//               choose semiSorted (unset, 0, 1, unset), bit 2 keeps a
//               fingerprintBits of 0 as 0 (else "derived"), bit 3 gives the
//               cuckoo options to a type that does not take them.
//   op stream   op bytes, each followed by its key: 0..3 letters of "abcd"
//               (op bits 4-5 = length), so keys repeat and small filters fill,
//               saturate and overflow.
//
// An op byte's low 3 bits pick the op from one of two tables; which one is
// the type's own depends on the registry's supportsRemove, and op bit 3
// selects the other, so every type meets every op (an operation the type
// lacks must say UNSUPPORTED and change nothing):
//
//        with removal (own table of           without removal (own table of
//        counting-bloom, cuckoo)              bloom, blocked-bloom)
//   0,1  add                                  0,1,2 add
//   2,3  remove (checked, see below)          3     has
//   4    has                                  4     round trip
//   5    round trip                           5     add to B
//   6    add the key 1/6/11/16 times          6     union B into A
//   7    clear (bits 6-7 = 3) or remove       7     clear (bits 6-7 = 3)
//        every copy of the key
//
// A is the filter under test; a shadow copy, deserialized from A's bytes at
// the last round trip, gets every A op and must answer alike and stay byte
// identical (a filter read back continues exactly, eviction walk included);
// B is a second filter with the same options. A round trip with op bit 7 set
// replaces A by its deserialized copy as well.
//
// Removing a key that was never added is documented to be able to delete
// other keys' entries (docs/SECURITY.md), so the target removes a key only
// when the model holds it (then Ok), or when has() says it is absent (then
// NOT_FOUND and the bytes unchanged); a false positive is never removed.
//
// Checks after every op: no false negative (every model key is found: after
// the ops that could lose one, after an add that moved other entries, every
// 8th op, and at the end; an add checks its own key); count <= adds -
// successful removes without a union since the last clear; a FULL add
// changes nothing but the walk state (TypeChecks::kWalkState) and the
// checksum; round trips are byte-identical with identical answers for all
// 85 keys and equal counts; clear gives the bytes of a fresh filter (walk
// state aside) and finds no key; plus the type's own (TypeChecks: exact
// counts, union bounds, cuckoo per-fingerprint accounting and kick paths).
// Raw options: create() accepts exactly the valid options of the type
// (TypeChecks::expectCreate plus the shared rules), failing with
// INVALID_ARGUMENT; a created filter has the capacity, seed and rate asked for.
#include "filter_checks.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

constexpr uint32_t kWalkBudget = 1000;     // longer cuckoo walks are too slow here
constexpr size_t kMaxExercisedBytes = 8192;  // bigger tables make round trips slow

struct TypeSetup {
  FilterTypeInfo info;
  bool takesCuckooOptions;  // createFilter accepts bucketSize etc.
};

// The registry, plus which types take the cuckoo options (asked of create
// itself: a type rejects options that do not apply to it).
const std::vector<TypeSetup>& typeSetups() {
  static const std::vector<TypeSetup> setups = [] {
    std::vector<TypeSetup> out;
    for (const FilterTypeInfo& info : registeredFilterTypes()) {
      CoreFilterOptions probe;
      probe.capacity = 1;
      probe.falsePositiveRate = 0.5;
      probe.bucketSize = 4;
      out.push_back({info, createFilter(info.type, probe).isOk()});
    }
    return out;
  }();
  return setups;
}

const std::vector<std::string>& sampleKeys() {
  static const std::vector<std::string> keys = {"", "a", "bc", "dda", "abcd-not-in-the-alphabet"};
  return keys;
}

class Session {
 public:
  Session(const TypeSetup& setup, const CoreFilterOptions& options, std::unique_ptr<AnyFilter> a)
      : setup_(setup), options_(options), a_(std::move(a)) {
    Result<std::unique_ptr<AnyFilter>> b = createFilter(setup.info.type, options);
    FUZZ_CHECK_MSG(b.isOk(), "%s", b.status().message().c_str());
    b_ = std::move(b).value();
    shadow_ = readBack(a_->serialize(), "a new filter");
  }

  // Returns whether the key went in.
  bool add(const std::string& key) {
    const KeyHash h = hashOf(*a_, key);
    const Status status = checkedAdd(*a_, h);
    if (status.isOk()) {
      model_.add(key);
      FUZZ_CHECK(shadow_->add(h).isOk());
      return true;
    }
    // The shadow still is A before this add.
    const Bytes before = shadow_->serialize();
    FUZZ_CHECK(shadow_->add(h).code() == StatusCode::Full);
    FUZZ_CHECK_MSG(differOnlyIn(before, a_->serialize(), walkStateOf(*a_, before.size())),
                   "a FULL add changed the filter");
    return false;
  }

  void addToB(const std::string& key) {
    if (checkedAdd(*b_, hashOf(*b_, key)).isOk()) modelB_.add(key);
  }

  // Removes `key` if that is safe to do; returns whether the model lost a copy.
  bool remove(const std::string& key) {
    const KeyHash h = hashOf(*a_, key);
    if (!setup_.info.supportsRemove) {
      const Bytes before = a_->serialize();
      FUZZ_CHECK(a_->remove(h).code() == StatusCode::Unsupported);
      FUZZ_CHECK(a_->serialize() == before);
      return false;
    }
    if (model_.holds(key)) {
      const Status status = a_->remove(h);
      // A growing chain keeps a key that matches in several links rather than
      // guess which copy is its own (scalable_cuckoo_filter.h): nothing removed.
      if (status.code() == StatusCode::Unsupported && a_->has(h)) {
        FUZZ_CHECK(shadow_->remove(h).code() == StatusCode::Unsupported);
        return false;
      }
      FUZZ_CHECK_MSG(status.isOk(), "remove of a held key: %s", status.message().c_str());
      FUZZ_CHECK(shadow_->remove(h).isOk());
      model_.removeOne(key);
      return true;
    }
    if (!a_->has(h)) {
      const Bytes before = a_->serialize();
      FUZZ_CHECK(a_->remove(h).code() == StatusCode::NotFound);
      FUZZ_CHECK(shadow_->remove(h).code() == StatusCode::NotFound);
      FUZZ_CHECK(a_->serialize() == before);
    }
    // else: a false positive; removing it could take other keys' entries.
    return false;
  }

  void has(const std::string& key) {
    const KeyHash h = hashOf(*a_, key);
    const bool present = a_->has(h);
    FUZZ_CHECK(shadow_->has(h) == present);
    if (model_.holds(key)) FUZZ_CHECK_MSG(present, "false negative: \"%s\"", key.c_str());
  }

  // Serialize + deserialize: the shadow must not have diverged; it becomes
  // the copy, and so does A when `replaceA`.
  void roundTrip(bool replaceA) {
    const Bytes bytes = a_->serialize();
    FUZZ_CHECK_MSG(shadow_->serialize() == bytes, "the deserialized copy diverged");
    shadow_ = checkedCopy(*a_, bytes);
    if (replaceA) a_ = readBack(bytes, "round trip");  // the same bytes as the shadow's
  }

  void unionWithB() {
    if (!setup_.info.supportsUnion) {
      const Bytes before = a_->serialize();
      FUZZ_CHECK(a_->unionWith(*b_).code() == StatusCode::Unsupported);
      FUZZ_CHECK(a_->serialize() == before);
      return;
    }
    const uint64_t countA = a_->header().itemCount, countB = b_->header().itemCount;
    const Bytes before = a_->serialize();
    const Status status = a_->unionWith(*b_);
    if (!status.isOk() && before.size() != b_->serialize().size()) {
      // Filters of different shapes (growing chains with different link
      // counts) cannot be merged: refused, and A is left exactly as it was.
      FUZZ_CHECK_MSG(status.code() == StatusCode::InvalidArgument, "union: %s", status.message().c_str());
      FUZZ_CHECK(a_->serialize() == before);
      return;
    }
    FUZZ_CHECK_MSG(status.isOk(), "union: %s", status.message().c_str());
    FUZZ_CHECK(shadow_->unionWith(*b_).isOk());
    model_.merge(modelB_);
    unioned_ = true;
    withConcrete(*a_, [&](const auto& concrete) {
      TypeChecks<ClassOf<decltype(concrete)>>::afterUnion(concrete, countA, countB);
    });
    roundTrip(true);  // the union's count must satisfy the reader
  }

  void clear() {
    a_->clear();
    shadow_->clear();
    model_.clear();
    unioned_ = false;
    FUZZ_CHECK(a_->header().itemCount == 0);
    for (const std::string& k : allKeys()) FUZZ_CHECK(!a_->has(bytesOf(k), k.size()));
    withConcrete(*a_, [&](const auto& concrete) { TypeChecks<ClassOf<decltype(concrete)>>::afterClear(concrete); });
    Result<std::unique_ptr<AnyFilter>> fresh = createFilter(setup_.info.type, options_);
    FUZZ_CHECK(fresh.isOk());
    const Bytes freshBytes = fresh.value()->serialize();
    FUZZ_CHECK_MSG(differOnlyIn(freshBytes, a_->serialize(), walkStateOf(*a_, freshBytes.size())),
                   "a cleared filter differs from a new one");
  }

  bool movedOthers() const {
    bool moved = false;
    withConcrete(*a_, [&](const auto& concrete) {
      moved = TypeChecks<ClassOf<decltype(concrete)>>::movedOthers(concrete);
    });
    return moved;
  }

  void checkModel(bool all) const { checkModelOf(*a_, model_, unioned_, all); }

  void finish() {
    checkModelOf(*a_, model_, unioned_, true);
    checkModelOf(*b_, modelB_, false, true);
    FUZZ_CHECK(shadow_->serialize() == a_->serialize());
    checkedCopy(*a_, a_->serialize());
    checkedCopy(*b_, b_->serialize());
    inspectFilter(*a_, sampleKeys());
    inspectFilter(*b_, sampleKeys());
  }

 private:
  static void checkModelOf(const AnyFilter& filter, const Model& model, bool unioned, bool all) {
    if (all) {
      model.forEachDistinct([&](const std::string& key) {
        FUZZ_CHECK_MSG(filter.has(bytesOf(key), key.size()), "false negative: \"%s\" (held %zu times)", key.c_str(),
                       model.copies(key));
      });
    }
    if (!unioned) {
      FUZZ_CHECK_MSG(filter.header().itemCount <= model.size(), "count %llu, model %zu",
                     static_cast<unsigned long long>(filter.header().itemCount), model.size());
    }
    withConcrete(filter, [&](const auto& concrete) {
      TypeChecks<ClassOf<decltype(concrete)>>::checkModel(concrete, model, unioned, all);
    });
  }

  // A copy read from `bytes` (what `filter` just wrote): identical bytes,
  // count and answers for every alphabet key.
  static std::unique_ptr<AnyFilter> checkedCopy(const AnyFilter& filter, const Bytes& bytes) {
    std::unique_ptr<AnyFilter> copy = readBack(bytes, "round trip");
    FUZZ_CHECK(copy->type() == filter.type());
    FUZZ_CHECK(copy->header().itemCount == filter.header().itemCount);
    for (const std::string& key : allKeys()) {
      FUZZ_CHECK(copy->has(bytesOf(key), key.size()) == filter.has(bytesOf(key), key.size()));
    }
    return copy;
  }

  const TypeSetup& setup_;
  const CoreFilterOptions options_;
  std::unique_ptr<AnyFilter> a_, shadow_, b_;
  Model model_, modelB_;
  bool unioned_ = false;
};

// Raw options: any rate (NaN, 0, 1, negative, subnormal...), any bucket size,
// fingerprint width and walk length.
CoreFilterOptions rawOptions(KeyStream& in, uint8_t config, const TypeSetup& setup) {
  static const int kSemiSorted[] = {-1, 0, 1, -1};  // -1: not given
  CoreFilterOptions options;
  options.capacity = 1 + in.byte();
  options.falsePositiveRate = in.f64();
  if (setup.takesCuckooOptions || (config & 8)) {
    options.bucketSize = static_cast<int64_t>(in.u64(1));
    const int64_t bits = static_cast<int64_t>(in.u64(1));
    if (bits != 0 || (config & 4)) options.fingerprintBits = bits;
    options.maxKicks = static_cast<int64_t>(in.u64(4));
    if (kSemiSorted[config & 3] >= 0) options.semiSorted = kSemiSorted[config & 3] == 1;
  }
  options.seed = in.u64(8);
  return options;
}

Expect expectCreate(const TypeSetup& setup, const CoreFilterOptions& options) {
  // The shared rules: options that do not apply are rejected, never ignored;
  // with only the shared options, a rate outside (0, 1) is rejected.
  const bool cuckooOptions = options.bucketSize || options.fingerprintBits || options.maxKicks || options.semiSorted;
  if (cuckooOptions && !setup.takesCuckooOptions) return Expect::Reject;
  if (!cuckooOptions && !validRate(options.falsePositiveRate)) return Expect::Reject;
  Expect expect = Expect::Either;
  withFilterClass(setup.info.type,
                  [&](auto tag) { expect = TypeChecks<typename decltype(tag)::Filter>::expectCreate(options); });
  // A type without its own rules (the composites) may be valid at any size,
  // and a growing one multiplies its size by `growth` per link: past 64 Ki
  // keys, or growing more than 4x a link, it is soon too big (or too slow)
  // to exercise under the fuzzer's memory and time limits.
  if (expect == Expect::Either && (options.capacity > (uint64_t{1} << 16) || options.growth.value_or(0.0) > 4.0)) {
    return Expect::Skip;
  }
  return expect;
}

CoreFilterOptions smallOptions(KeyStream& in, uint8_t config, const TypeSetup& setup) {
  CoreFilterOptions options;
  options.capacity = 1 + (config & 63);
  if (setup.takesCuckooOptions) {
    static const int64_t kKicks[] = {0, 1, 2, 5, 20, 100, 500, 3};
    const uint8_t geometry = in.byte();
    options.bucketSize = int64_t{2} << (geometry % 3);
    const uint8_t bits = in.byte() % 32;
    if (bits >= 4) options.fingerprintBits = bits + 1;  // derived (not given), or 5..32; 4 below
    if (bits == 3) options.fingerprintBits = 4;
    options.maxKicks = kKicks[(geometry >> 2) & 7];
    options.falsePositiveRate = rateFromByte(geometry >> 5);
    if (config & 64) options.semiSorted = true;  // where the build has it (else unset, below)
  } else {
    options.falsePositiveRate = rateFromByte(in.byte());
  }
  options.seed = in.byte() * 0x9E3779B97F4A7C15ull;
  return options;
}

// A static type (binary fuse) has no op stream to replay: the stream's keys
// are its set. Config bit 7: raw options (rate f64, fingerprintBits byte,
// arity byte, 0 meaning unset, seed u64), accepted exactly when
// TypeChecks::expectBuild says; else a rate from the config byte, arity 4
// when bit 3, explicit fingerprint bits (4..32) when bit 4. Then: every key
// is found, the count is the distinct keys, the bytes read back and do not
// depend on the keys' order or repeats, add / remove / union are
// UNSUPPORTED and change nothing, and clear leaves a filter that finds
// nothing and reads back.
int runStatic(KeyStream& in, uint8_t config, const TypeSetup& setup) {
  CoreFilterOptions options;
  if (config & 0x80) {
    options.falsePositiveRate = in.f64();
    const uint8_t bits = in.byte(), arity = in.byte();
    if (bits != 0) options.fingerprintBits = bits;
    if (arity != 0) options.arity = arity;
    options.seed = in.u64(8);
  } else {
    options.falsePositiveRate = rateFromByte(config);
    if (config & 8) options.arity = 4;
    if (config & 16) options.fingerprintBits = 4 + in.byte() % 29;
    options.seed = in.byte() * 0x9E3779B97F4A7C15ull;
  }
  std::vector<std::string> keys;
  std::set<std::string> distinct;
  while (!in.empty()) {
    keys.push_back(in.key(in.byte()));
    distinct.insert(keys.back());
  }
  const auto build = [&](const std::vector<std::string>& set) {
    std::vector<KeyHash> hashes;
    for (const std::string& key : set) hashes.push_back(hashKey(bytesOf(key), key.size(), options.seed));
    return buildFilter(setup.info.type, options, hashes.data(), hashes.size());
  };
  Result<std::unique_ptr<AnyFilter>> built = build(keys);
  Expect expect = Expect::Either;
  withFilterClass(setup.info.type,
                  [&](auto tag) { expect = TypeChecks<typename decltype(tag)::Filter>::expectBuild(options); });
  if (expect == Expect::Accept) FUZZ_CHECK_MSG(built.isOk(), "build: %s", built.status().message().c_str());
  if (expect == Expect::Reject) FUZZ_CHECK_MSG(!built.isOk(), "build accepted invalid options");
  if (!built.isOk()) {
    FUZZ_CHECK_MSG(built.status().code() == StatusCode::InvalidArgument, "build: %s %s",
                   statusCodeName(built.status().code()), built.status().message().c_str());
    return 0;
  }
  AnyFilter& filter = *built.value();
  FUZZ_CHECK(filter.type() == setup.info.type && filter.header().seed == options.seed);
  FUZZ_CHECK(filter.header().itemCount == distinct.size());
  for (const std::string& key : keys) FUZZ_CHECK_MSG(filter.has(bytesOf(key), key.size()), "false negative");
  inspectFilter(filter, allKeys());
  const Bytes bytes = filter.serialize();
  readBack(bytes, "a built filter");
  // The set, not its order or repeats, decides the bytes.
  const std::vector<std::string> sorted(distinct.begin(), distinct.end());
  Result<std::unique_ptr<AnyFilter>> again = build(std::vector<std::string>(sorted.rbegin(), sorted.rend()));
  FUZZ_CHECK(again.isOk() && again.value()->serialize() == bytes);
  // Static: nothing changes it.
  const std::string probe = keys.empty() ? std::string("a") : keys[0];
  FUZZ_CHECK(filter.add(bytesOf(probe), probe.size()).code() == StatusCode::Unsupported);
  FUZZ_CHECK(filter.remove(bytesOf(probe), probe.size()).code() == StatusCode::Unsupported);
  FUZZ_CHECK(filter.unionWith(*again.value()).code() == StatusCode::Unsupported);
  FUZZ_CHECK(filter.serialize() == bytes);
  filter.clear();
  FUZZ_CHECK(filter.header().itemCount == 0);
  for (const std::string& key : allKeys()) FUZZ_CHECK(!filter.has(bytesOf(key), key.size()));
  withConcrete(filter, [&](const auto& concrete) { TypeChecks<ClassOf<decltype(concrete)>>::afterClear(concrete); });
  readBack(filter.serialize(), "a cleared filter");
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  KeyStream in(data, size);
  const std::vector<TypeSetup>& setups = typeSetups();
  FUZZ_CHECK(!setups.empty());
  const TypeSetup& setup = setups[in.byte() % setups.size()];
  const uint8_t config = in.byte();
  if (setup.info.isStatic) return runStatic(in, config, setup);

  CoreFilterOptions options;
  Result<std::unique_ptr<AnyFilter>> created = Status::invalidArgument("not created");
  if (config & 0x80) {
    options = rawOptions(in, config, setup);
    const Expect expect = expectCreate(setup, options);
    if (expect == Expect::Skip) return 0;  // valid, but too big to exercise here
    created = createFilter(setup.info.type, options);
    if (expect == Expect::Accept) FUZZ_CHECK_MSG(created.isOk(), "create: %s", created.status().message().c_str());
    if (expect == Expect::Reject) FUZZ_CHECK_MSG(!created.isOk(), "create accepted invalid options");
  } else {
    options = smallOptions(in, config, setup);
    created = createFilter(setup.info.type, options);
    if (!created.isOk() && options.semiSorted == true) {
      FUZZ_CHECK(created.status().code() == StatusCode::InvalidArgument);
      options.semiSorted.reset();
      created = createFilter(setup.info.type, options);
    }
    if (!created.isOk() && (options.fingerprintBits || options.maxKicks)) {
      // Fingerprint bits too few for the rate, or options a type takes only
      // some of (a growing cuckoo chain takes bucketSize alone): refused as
      // InvalidArgument; the rest of the options must then make a filter.
      FUZZ_CHECK(created.status().code() == StatusCode::InvalidArgument);
      options.fingerprintBits.reset();
      options.maxKicks.reset();
      options.semiSorted.reset();
      created = createFilter(setup.info.type, options);
    }
    FUZZ_CHECK_MSG(created.isOk(), "create: %s", created.status().message().c_str());
  }
  if (!created.isOk()) {
    FUZZ_CHECK_MSG(created.status().code() == StatusCode::InvalidArgument, "create: %s %s",
                   statusCodeName(created.status().code()), created.status().message().c_str());
    FUZZ_CHECK(!created.status().message().empty());
    return 0;
  }

  // What every new filter is: the type, capacity, seed and rate asked for,
  // empty, written in the current format version.
  AnyFilter& a = *created.value();
  const FilterHeader& header = a.header();
  FUZZ_CHECK(a.type() == setup.info.type && header.type == setup.info.type);
  FUZZ_CHECK(header.capacity == options.capacity && header.seed == options.seed && header.itemCount == 0);
  if (validRate(options.falsePositiveRate)) FUZZ_CHECK(header.targetFalsePositiveRate == options.falsePositiveRate);
  FUZZ_CHECK(validRate(header.targetFalsePositiveRate));
  FUZZ_CHECK(readLE(a.serialize().data() + 4, 2) == kFormatVersion);
  bool exercisable = true;
  withConcrete(a, [&](const auto& concrete) {
    using Filter = ClassOf<decltype(concrete)>;
    TypeChecks<Filter>::afterCreate(concrete, options);
    exercisable = TypeChecks<Filter>::exercisable(concrete, kWalkBudget);
  });
  if (!exercisable || a.byteLength() > kMaxExercisedBytes) return 0;

  Session s(setup, options, std::move(created).value());
  for (unsigned step = 0; !in.empty(); ++step) {
    const uint8_t op = in.byte();
    const std::string key = in.key(op >> 4);
    const unsigned kind = op & 7, high = op >> 6;
    const bool removalTable = setup.info.supportsRemove != ((op & 8) != 0);
    bool all = step % 8 == 7;
    if (removalTable) {
      switch (kind) {
        case 0: case 1:
          s.add(key);
          break;
        case 2: case 3:
          s.remove(key);
          all = true;
          break;
        case 4:
          s.has(key);
          break;
        case 5:
          s.roundTrip(op & 0x80);
          all = true;
          break;
        case 6:
          for (unsigned i = 0, n = 1 + 5 * high; i < n; ++i) {
            if (!s.add(key)) break;
          }
          break;
        case 7:
          if (high == 3) {
            s.clear();
          } else {
            while (s.remove(key)) {}
          }
          all = true;
          break;
      }
    } else {
      switch (kind) {
        case 0: case 1: case 2:
          s.add(key);
          break;
        case 3:
          s.has(key);
          break;
        case 4:
          s.roundTrip(op & 0x80);
          break;
        case 5:
          s.addToB(key);
          break;
        case 6:
          s.unionWithB();
          break;
        case 7:
          if (high == 3) s.clear();
          break;
      }
      all = all || kind >= 4;
    }
    s.checkModel(all || s.movedOthers());
  }
  s.finish();
  return 0;
}
