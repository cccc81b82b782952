// docs/SECURITY.md's and docs/FORMAT.md's tables, read from the markdown and
// checked row by row against the code, both ways: a row the code contradicts
// fails, and so does a type, limit or check the code has and a table lacks.
// Where a cell states a rule (the versions a type is read in, the item counts
// it accepts, the bucket counts an addressing allows, the URL schemes), the
// rule is checked by reading crafted bytes, not by comparing with a copy of it.
//
// Tables checked (found by their header row, so a reworded header fails too):
//   SECURITY.md  "What is trusted" (the codes a reader can return),
//                "What each loader checks" (every step's error, the versions
//                and types of steps 3 and 6), "Limits" (every value
//                against its constant);
//   FORMAT.md    "Filter types", the one table of every type (id, name, P,
//                versions read, item count: step 8 of SECURITY.md's loader
//                checks; reserved ranges hold no known type), cuckoo
//                addressing (bucket counts), URL blocklist schemes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cuckoo_bloom/url/expression_set.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/chains/expiring_bloom_filter.h"
#include "cuckoo_bloom/chains/link_chain.h"
#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/exact_index/index_snapshot.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/url/url_blocklist.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using Bytes = std::vector<uint8_t>;
using Row = std::vector<std::string>;
using cuckoo_bloom_test::readLE;
using cuckoo_bloom_test::writeLE;

// ---- reading the markdown

std::string repositoryFile(const std::string& path) {
  // CUCKOO_BLOOM_GOLDEN_DIR is <repository>/tests/golden.
  std::ifstream in(std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/../../" + path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string trim(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The cells of a table row ("| a | b |"); "\|" is a literal bar inside a cell.
Row cellsOf(const std::string& line) {
  Row cells;
  std::string cell;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// The body rows of the table whose header row is `header` (compared without
// the surrounding spaces; a table indented in a list item is found too).
// Fails the test when there is no such table, or when a row has another
// number of cells than the header.
std::vector<Row> tableRows(const std::string& document, const std::string& name, const std::string& header) {
  std::istringstream lines(document);
  std::string line;
  std::vector<Row> rows;
  bool inTable = false, found = false;
  size_t width = 0;
  while (std::getline(lines, line)) {
    line = trim(line);
    if (!inTable) {
      if (line == header) {
        inTable = found = true;
        width = cellsOf(header).size();
        std::getline(lines, line);  // | --- | --- |
      }
      continue;
    }
    if (line.empty() || line[0] != '|') break;
    Row row = cellsOf(line);
    EXPECT_EQ(row.size(), width) << name << ": a row of " << row.size() << " cells: " << line;
    rows.push_back(row);
  }
  EXPECT_TRUE(found) << name << ": no table with the header " << header;
  EXPECT_FALSE(rows.empty()) << name;
  return rows;
}

// 2^40 -> 2^40; "2^53 − 1" -> 2^53 - 1; "1,024" -> 1024. Every such number in `text`.
std::vector<uint64_t> numbersIn(const std::string& text) {
  static const std::regex number(R"((\d[\d,]*)(\^(\d+))?(\s*(−|-)\s*1\b)?)");
  std::vector<uint64_t> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    std::string digits = (*it)[1];
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    uint64_t value = std::stoull(digits);
    if ((*it)[3].matched) value = uint64_t{1} << std::stoi((*it)[3]);
    if ((*it)[4].matched && (*it)[3].matched) value -= 1;
    out.push_back(value);
  }
  return out;
}

// "1–5, 16–19, 32" (en dash or hyphen ranges) -> {1, ..., 5, 16, ..., 19, 32}.
std::set<uint64_t> idSet(const std::string& text) {
  static const std::regex item(R"((\d+)(\s*(–|-)\s*(\d+))?)");
  std::set<uint64_t> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), item); it != std::sregex_iterator(); ++it) {
    const uint64_t first = std::stoull((*it)[1]);
    const uint64_t last = (*it)[4].matched ? std::stoull((*it)[4]) : first;
    for (uint64_t id = first; id <= last; ++id) out.insert(id);
  }
  return out;
}

// The status names written as `CODE` in a cell.
std::set<std::string> codesIn(const std::string& text) {
  static const std::regex code(R"(`([A-Z][A-Z_]{3,})`)");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), code); it != std::sregex_iterator(); ++it) {
    out.insert((*it)[1]);
  }
  return out;
}

// `name` -> name.
std::string unquoted(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') return cell.substr(1, cell.size() - 2);
  return cell;
}

std::string asText(const std::set<uint64_t>& values) {
  std::string out;
  for (uint64_t v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return "{" + out + "}";
}

// ---- bytes to probe the code with

Bytes goldenFile(const std::string& name) {
  std::ifstream in(std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

constexpr size_t kVersionAt = 4, kTypeAt = 6, kHashAt = 7, kParamsLengthAt = 12, kCountAt = 24, kParamsAt = 56;

std::vector<size_t> nestedOffsets(const Bytes& blob) {
  std::vector<size_t> offsets;
  if (blob.size() < 64 || blob[kTypeAt] < 16 || blob[kTypeAt] > 31) return offsets;
  size_t at = kParamsAt + readLE(blob, kParamsLengthAt, 4);
  while (at + 64 <= blob.size() - 8) {
    const size_t length = nestedBlobLength(blob.data() + at, blob.size() - 8 - at);
    if (length == 0) break;
    offsets.push_back(at);
    at += length;
  }
  return offsets;
}

// Every checksum again, nested ones first: a probe tests a field's meaning.
void reseal(Bytes& blob) {
  for (size_t at : nestedOffsets(blob)) {
    const size_t length = nestedBlobLength(blob.data() + at, blob.size() - 8 - at);
    writeLE(blob, at + length - 8, 8, formatChecksum(blob.data() + at, length - 8));
  }
  writeLE(blob, blob.size() - 8, 8, formatChecksum(blob.data(), blob.size() - 8));
}

Bytes changed(Bytes blob, size_t offset, int width, uint64_t value) {
  writeLE(blob, offset, width, value);
  reseal(blob);
  return blob;
}

Bytes blocklistOf(const Bytes& filter, uint32_t scheme = kExpressionSchemeSafeBrowsingV1, uint32_t depth = 0) {
  Result<Bytes> encoded = encodeUrlBlocklist(filter.data(), filter.size(), scheme, 50, depth);
  EXPECT_TRUE(encoded.isOk()) << encoded.status().message();
  return encoded.isOk() ? encoded.value() : Bytes();
}

// The smallest valid cuckoo index snapshot (type 32): 2 empty buckets.
Bytes emptySnapshot() {
  IndexSnapshotParams params;
  params.bucketCount = 2;
  params.tagBits = 8;
  params.slotLayout = kIndexSnapshotSlotLayout;
  FilterHeader header;
  header.type = FilterType::CuckooIndexSnapshot;
  header.capacity = 2 * kIndexBucketSlots;
  header.targetFalsePositiveRate = indexSnapshotReadRate(params.tagBits);
  return encodeBlob(header, encodeParams(params), Bytes(2 * kIndexBucketSlots * 8, 0));
}

// A valid blob of the type `id`, in the format version this build writes:
// its golden file (named after the type), a blocklist around the golden
// Bloom filter, or the empty snapshot.
Bytes blobOfType(uint64_t id) {
  if (id == kExpressionSetTypeId) return goldenFile("url-expression-set.confirm");
  if (id == kExpressionSetIndexTypeId) return encodeExpressionSetParts({1, 2, 3}, kExpressionSetDefaultSeed, 7).index;
  if (id == static_cast<uint64_t>(FilterType::UrlBlocklist)) return blocklistOf(goldenFile("bloom.cbf"));
  if (id == static_cast<uint64_t>(FilterType::CuckooIndexSnapshot)) return emptySnapshot();
  return goldenFile(std::string(filterTypeName(static_cast<FilterType>(id))) + ".cbf");
}

// The type `id` in format version `version`: the version-1 golden file where
// one exists (types 1-4; a blocklist around the version-1 Bloom filter),
// else today's bytes with every version field (outer and nested) rewritten.
Bytes blobOfTypeInVersion(uint64_t id, uint64_t version) {
  if (version == 1 && id >= 1 && id <= 4) {
    return goldenFile("v1/" + std::string(filterTypeName(static_cast<FilterType>(id))) + ".cbf");
  }
  Bytes blob = id == static_cast<uint64_t>(FilterType::UrlBlocklist) && version == 1
                   ? blocklistOf(goldenFile("textbook-sizing/bloom.cbf"))
                   : blobOfType(id);
  if (id == static_cast<uint64_t>(FilterType::UrlBlocklist) && version == 1) {
    const Bytes nested = goldenFile("v1/bloom.cbf");
    std::copy(nested.begin(), nested.end(), blob.begin() + 64);
  }
  writeLE(blob, kVersionAt, 2, version);
  for (size_t at : nestedOffsets(blob)) writeLE(blob, at + kVersionAt, 2, version);
  reseal(blob);
  return blob;
}

// What reading `blob` as its own type answers: a blocklist is its envelope
// and then its nested filter (as UrlBlocklist.deserialize reads it), a
// snapshot decodeIndexSnapshot, anything else deserializeFilter.
StatusCode readStatus(const Bytes& blob) {
  if (blob.size() > kTypeAt && blob[kTypeAt] == static_cast<uint8_t>(FilterType::UrlBlocklist)) {
    Result<UrlBlocklistEnvelope> envelope = decodeUrlBlocklist(blob.data(), blob.size());
    if (!envelope.isOk()) return envelope.status().code();
    return deserializeFilter(envelope.value().filter, envelope.value().filterLength).status().code();
  }
  if (blob.size() > kTypeAt && blob[kTypeAt] == static_cast<uint8_t>(FilterType::CuckooIndexSnapshot)) {
    return decodeIndexSnapshot(blob.data(), blob.size()).status().code();
  }
  if (blob.size() > kTypeAt && blob[kTypeAt] == kExpressionSetTypeId) {
    return ExpressionSet::read(blob.data(), blob.size()).status().code();
  }
  if (blob.size() > kTypeAt && blob[kTypeAt] == kExpressionSetIndexTypeId) {
    return ExpressionSetIndex::read(blob.data(), blob.size()).status().code();
  }
  return deserializeFilter(blob.data(), blob.size()).status().code();
}

std::set<uint64_t> versionsRead(uint64_t id) {
  std::set<uint64_t> read;
  for (uint64_t version = 0; version <= 4; ++version) {
    if (readStatus(blobOfTypeInVersion(id, version)) == StatusCode::Ok) read.insert(version);
  }
  return read;
}

// Every type id a reader knows (decodeBlob passes it to a type's reader).
std::set<uint64_t> knownTypeIds() {
  std::set<uint64_t> ids;
  for (uint64_t id = 0; id < 256; ++id) {
    if (isKnownFilterType(static_cast<uint8_t>(id))) ids.insert(id);
  }
  return ids;
}

// Every type a filter reader reads (filter_types.h) and the blocklist envelope.
std::set<uint64_t> filterAndEnvelopeTypeIds() {
  std::set<uint64_t> ids = {static_cast<uint64_t>(FilterType::UrlBlocklist)};
  for (const FilterTypeInfo& info : registeredFilterTypes()) ids.insert(static_cast<uint64_t>(info.type));
  return ids;
}

std::string outOfMemoryName() {
  WordBuffer words;
  return statusCodeName(allocateWords(words, UINT64_MAX, FilterType::Bloom).code());
}

const std::string kSecurity = "docs/SECURITY.md";
const std::string kFormat = "docs/FORMAT.md";

// ---- SECURITY.md

TEST(DocsTables, SecurityWhatIsTrustedNamesEveryCodeAReaderReturns) {
  const std::vector<Row> rows =
      tableRows(repositoryFile(kSecurity), "SECURITY.md What is trusted", "| input | trusted? | what happens |");
  const Row* bytesRow = nullptr;
  for (const Row& row : rows) {
    if (row[0].find("Serialized bytes") != std::string::npos) bytesRow = &row;
  }
  ASSERT_NE(bytesRow, nullptr) << "no row for serialized bytes";
  // The codes a reader returns: the decode errors, and the allocation's own
  // code when memory for the table runs out.
  const std::set<std::string> expected = {statusCodeName(StatusCode::Corrupt),
                                          statusCodeName(StatusCode::UnsupportedVersion),
                                          statusCodeName(StatusCode::WrongType), outOfMemoryName()};
  EXPECT_EQ(codesIn((*bytesRow)[2]), expected) << (*bytesRow)[2];
}

TEST(DocsTables, SecurityLoaderChecksGiveTheErrorsTheTableSays) {
  const std::vector<Row> rows =
      tableRows(repositoryFile(kSecurity), "SECURITY.md loader checks", "| # | check (FORMAT.md) | error | code |");
  const Bytes bloom = goldenFile("bloom.cbf");
  // What each step's failure answers, by step number.
  const std::map<uint64_t, std::function<StatusCode()>> probes = {
      {1, [&] { return decodeBlob(bloom.data(), 63).status().code(); }},
      {2, [&] { Bytes b = bloom; b[0] = 'X'; reseal(b); return decodeBlob(b.data(), b.size()).status().code(); }},
      {3, [&] { return decodeBlob(changed(bloom, kVersionAt, 2, 3).data(), bloom.size()).status().code(); }},
      {4, [&] {
         return decodeBlob(changed(bloom, kParamsLengthAt, 4, 17).data(), bloom.size()).status().code();
       }},
      {5, [&] { Bytes b = bloom; b.back() ^= 1; return decodeBlob(b.data(), b.size()).status().code(); }},
      {6, [&] {
         uint8_t unknownId = 1;  // the first id no type has (a new type may take any reserved one)
         while (isKnownFilterType(unknownId)) ++unknownId;
         const StatusCode unknown =
             decodeBlob(changed(bloom, kTypeAt, 1, unknownId).data(), bloom.size()).status().code();
         const Bytes cuckoo = goldenFile("cuckoo.cbf");
         const StatusCode other = BloomFilter::deserialize(cuckoo.data(), cuckoo.size()).status().code();
         return unknown == other ? unknown : StatusCode::Ok;
       }},
      {7, [&] {  // an unknown algorithm, and a known one that is not the type's own
         const StatusCode unknown = decodeBlob(changed(bloom, kHashAt, 1, 3).data(), bloom.size()).status().code();
         const Bytes other = changed(bloom, kHashAt, 1, 2);
         const StatusCode notOwn = BloomFilter::deserialize(other.data(), other.size()).status().code();
         return unknown == notOwn ? unknown : StatusCode::Ok;
       }},
      {8, [&] { return BloomFilter::deserialize(changed(bloom, kParamsAt + 8, 4, 0).data(), bloom.size()).status().code(); }},
  };
  std::set<uint64_t> steps;
  for (const Row& row : rows) {
    const uint64_t step = std::stoull(row[0]);
    steps.insert(step);
    ASSERT_EQ(probes.count(step), 1u) << "SECURITY.md: a loader check " << step << " this test does not know";
    const std::set<std::string> codes = codesIn(row[2]);
    ASSERT_EQ(codes.size(), 1u) << "step " << step << ": one error code expected in " << row[2];
    EXPECT_EQ(*codes.begin(), statusCodeName(probes.at(step)())) << "step " << step << " (" << row[1] << ")";
  }
  std::set<uint64_t> expected;
  for (const auto& probe : probes) expected.insert(probe.first);
  EXPECT_EQ(steps, expected) << "SECURITY.md's loader table lacks a step the reader has";

  // Step 3: the versions it names are the versions decodeBlob reads.
  const Row& versions = rows[2];
  ASSERT_EQ(versions[0], "3");
  std::set<uint64_t> readable;
  for (uint64_t version = 0; version <= 8; ++version) {
    if (decodeBlob(changed(bloom, kVersionAt, 2, version).data(), bloom.size()).isOk()) readable.insert(version);
  }
  const std::string listed = versions[1].substr(0, versions[1].find(','));
  EXPECT_EQ(idSet(listed), readable) << "step 3 says " << listed << "; decodeBlob reads " << asText(readable);

  // Step 6: the known types are FORMAT.md's filter types table (one table of
  // every type, checked against the code below), and they are the types
  // decodeBlob knows.
  const Row& types = rows[5];
  ASSERT_EQ(types[0], "6");
  EXPECT_NE(types[1].find("/docs/FORMAT.md#filter-types)"), std::string::npos) << types[1];
  std::set<uint64_t> known;
  for (uint64_t id = 0; id < 256; ++id) {
    if (decodeBlob(changed(bloom, kTypeAt, 1, id).data(), bloom.size()).status().code() != StatusCode::WrongType) {
      known.insert(id);
    }
  }
  EXPECT_EQ(known, knownTypeIds()) << "decodeBlob knows " << asText(known);
}

// The item count rules of FORMAT.md's filter types table (step 8 of SECURITY.md's
// loader checks), each as bytes it must accept and refuse.
void expectItemCountRule(uint64_t id, const std::string& rule) {
  SCOPED_TRACE("type " + std::to_string(id) + ", item count " + rule);
  const Bytes blob = blobOfType(id);
  ASSERT_EQ(readStatus(blob), StatusCode::Ok);
  const uint64_t count = readLE(blob, kCountAt, 8);
  const auto withCount = [&](uint64_t value) { return readStatus(changed(blob, kCountAt, 8, value)); };
  if (rule == "any") {
    for (uint64_t value : {uint64_t{0}, count + 1, UINT64_MAX}) EXPECT_EQ(withCount(value), StatusCode::Ok) << value;
  } else if (rule == "= occupied slots") {
    EXPECT_EQ(withCount(count + 1), StatusCode::Corrupt);
    EXPECT_EQ(withCount(count - 1), StatusCode::Corrupt);
  } else if (rule == "≤ slots") {
    // Binary fuse: (segmentCount + arity - 1) * segmentLength slots.
    const uint64_t slots = (readLE(blob, kParamsAt + 8, 4) + blob[kParamsAt + 17] - 1) * readLE(blob, kParamsAt + 12, 4);
    EXPECT_EQ(withCount(slots), StatusCode::Ok);
    EXPECT_EQ(withCount(slots + 1), StatusCode::Corrupt);
  } else if (rule == "≤ 64 × blockCount") {
    // Ribbon: 64 slots a block.
    const uint64_t slots = 64 * readLE(blob, kParamsAt + 8, 4);
    EXPECT_EQ(withCount(slots), StatusCode::Ok);
    EXPECT_EQ(withCount(slots + 1), StatusCode::Corrupt);
  } else if (rule == "≤ 2^53 − 1") {
    EXPECT_EQ(withCount(kMaxExactEntryCount), StatusCode::Ok);
    EXPECT_EQ(withCount(kMaxExactEntryCount + 1), StatusCode::Corrupt);
  } else if (rule == "= sum of the links'") {
    EXPECT_EQ(withCount(count + 1), StatusCode::Corrupt);
    // A sum that wraps modulo 2^64 onto the header's count is no sum.
    const std::vector<size_t> links = nestedOffsets(blob);
    Bytes wrapped = blob;
    writeLE(wrapped, links[0] + kCountAt, 8, UINT64_MAX);
    writeLE(wrapped, kCountAt, 8, count - readLE(blob, links[0] + kCountAt, 8) - 1);
    reseal(wrapped);
    EXPECT_EQ(readStatus(wrapped), StatusCode::Corrupt);
  } else {
    ADD_FAILURE() << "an item count rule this test does not know: " << rule;
  }
}

// The value each limit's constant has, or (for what is not a constant) what the code does.
std::map<std::string, std::string> limitValues() {
  const Bytes bloom = goldenFile("bloom.cbf");
  uint64_t hashCount = 0;  // the largest hash count a Bloom reader accepts
  for (uint64_t k = 1; k <= 256; ++k) {
    if (BloomFilter::deserialize(changed(bloom, kParamsAt + 8, 4, k).data(), bloom.size()).isOk()) hashCount = k;
  }
  return {
      {"kMaxCapacity", std::to_string(kMaxCapacity)},
      {"kMaxTableBytes", std::to_string(kMaxTableBytes)},
      {"allocateWords", outOfMemoryName()},
      {"kMaxHashCount", std::to_string(hashCount)},
      {"kMaxKicksLimit", std::to_string(CuckooFilter::kMaxKicksLimit)},
      {"kMaxChainLinks", std::to_string(kMaxChainLinks)},
      {"kMaxGenerations", std::to_string(ExpiringBloomFilter::kMaxGenerations)},
      {"kMaxExactEntryCount", std::to_string(kMaxExactEntryCount)},
  };
}

TEST(DocsTables, SecurityLimitsAreTheConstants) {
  const std::vector<Row> rows =
      tableRows(repositoryFile(kSecurity), "SECURITY.md Limits", "| limit | value | constant | where |");
  const std::map<std::string, std::string> values = limitValues();
  std::set<std::string> named;
  for (const Row& row : rows) {
    if (row[2] == "—") continue;  // prose limits without a constant (allocation on read, time)
    const std::string constant = unquoted(row[2]);
    SCOPED_TRACE("SECURITY.md limit " + row[0] + " (" + constant + ")");
    named.insert(constant);
    ASSERT_EQ(values.count(constant), 1u) << "a constant this test does not know";
    const bool isStatus = values.at(constant).find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string::npos;
    if (isStatus) {
      const std::set<std::string> codes = codesIn(row[1]);
      // An error: the value names the code the code returns.
      EXPECT_EQ(codes, std::set<std::string>{values.at(constant)}) << row[1];
    } else {
      const std::vector<uint64_t> numbers = numbersIn(row[1]);
      ASSERT_FALSE(numbers.empty()) << row[1];
      EXPECT_EQ(std::to_string(*std::max_element(numbers.begin(), numbers.end())), values.at(constant)) << row[1];
    }
  }
  for (const auto& value : values) EXPECT_EQ(named.count(value.first), 1u) << "no limit row for " << value.first;
}

// ---- FORMAT.md

// The blocklist's companion types, each read by its own reader, never as a
// filter: the exact companion (ExpressionSet) and a split companion's index
// (ExpressionSetIndex). Their rows name them and give no item count rule.
struct CompanionType {
  uint8_t id;
  const char* name;
};
constexpr CompanionType kCompanionTypes[] = {
    {kExpressionSetTypeId, "url-expression-set"},
    {kExpressionSetIndexTypeId, "url-expression-set-index"},
};
const CompanionType* companionTypeOf(uint64_t id) {
  for (const CompanionType& companion : kCompanionTypes) {
    if (companion.id == id) return &companion;
  }
  return nullptr;
}

// The one table of every type (SECURITY.md's step 8 links to it): name, P,
// versions read and the item count rule of each type the readers know.
TEST(DocsTables, FormatFilterTypesAreTheTypesTheCodeKnows) {
  const std::vector<Row> rows = tableRows(repositoryFile(kFormat), "FORMAT.md Filter types",
                                          "| id | name | type | P | versions | item count | payload |");
  std::set<uint64_t> single, covered, counted;
  for (const Row& row : rows) {
    SCOPED_TRACE("FORMAT.md filter type " + row[0]);
    const std::set<uint64_t> ids = idSet(row[0]);
    ASSERT_FALSE(ids.empty());
    covered.insert(ids.begin(), ids.end());
    if (ids.size() > 1 || row[1].empty()) {
      // A reserved range: no type the code knows may sit in it.
      for (uint64_t id : ids) EXPECT_FALSE(isKnownFilterType(static_cast<uint8_t>(id))) << id << " is reserved";
      continue;
    }
    const uint64_t id = *ids.begin();
    single.insert(id);
    if (const CompanionType* companion = companionTypeOf(id)) {
      EXPECT_EQ(unquoted(row[1]), companion->name);
      EXPECT_EQ(std::stoull(row[3]), readLE(blobOfType(id), kParamsLengthAt, 4)) << "P";
      EXPECT_EQ(idSet(row[4]), versionsRead(id)) << "versions: " << row[4];
      EXPECT_EQ(row[5], "—");
      continue;
    }
    ASSERT_TRUE(isKnownFilterType(static_cast<uint8_t>(id))) << "no such type in the code";
    EXPECT_EQ(unquoted(row[1]), filterTypeName(static_cast<FilterType>(id)));
    EXPECT_EQ(std::stoull(row[3]), readLE(blobOfType(id), kParamsLengthAt, 4)) << "P";
    EXPECT_EQ(idSet(row[4]), versionsRead(id)) << "versions: " << row[4];
    if (row[5] == "—") continue;  // not a filter nor an envelope (the index snapshot)
    counted.insert(id);
    expectItemCountRule(id, row[5]);
  }
  std::set<uint64_t> known = knownTypeIds();
  for (const CompanionType& companion : kCompanionTypes) known.insert(companion.id);
  EXPECT_EQ(single, known) << "a type the code knows has no row";
  EXPECT_EQ(counted, filterAndEnvelopeTypeIds()) << "a filter or envelope type without its item count rule";
  std::set<uint64_t> everyId;
  for (uint64_t id = 1; id < 256; ++id) everyId.insert(id);
  EXPECT_EQ(covered, everyId) << "the table must account for every type id 1..255";
}

// An empty cuckoo filter of `buckets` buckets (2 slots of 4 bits, packed) in
// version 2 with the given addressing: valid unless the bucket count is not.
Bytes emptyCuckoo(uint64_t buckets, uint8_t addressing) {
  CuckooFilter::Params params;
  params.bucketCount = buckets;
  params.bucketSize = 2;
  params.fingerprintBits = 4;
  params.addressing = addressing;
  params.layout = static_cast<uint8_t>(CuckooSlotLayout::Packed);
  FilterHeader header;
  header.type = FilterType::Cuckoo;
  header.capacity = 1;
  header.targetFalsePositiveRate = 0.5;
  const uint64_t words = (buckets * 2 * 4 + 63) / 64;
  return encodeBlob(header, encodeParams(params), Bytes(static_cast<size_t>(words) * 8, 0));
}

TEST(DocsTables, FormatCuckooAddressingAllowsTheBucketCountsItSays) {
  const std::vector<Row> rows = tableRows(repositoryFile(kFormat), "FORMAT.md cuckoo addressing",
                                          "| addressing | bucketCount | written by |");
  std::set<uint64_t> addressings;
  for (const Row& row : rows) {
    SCOPED_TRACE("FORMAT.md addressing " + row[0] + ": " + row[1]);
    const uint64_t addressing = std::stoull(row[0]);
    addressings.insert(addressing);
    const bool powerOfTwo = row[1].rfind("a power of two", 0) == 0;
    ASSERT_TRUE(powerOfTwo || row[1].rfind("even", 0) == 0) << "a rule this test does not know";
    const std::vector<uint64_t> range = numbersIn(row[1].substr(row[1].find(',')));
    ASSERT_EQ(range.size(), 2u);
    for (uint64_t buckets : {0, 1, 2, 3, 4, 6, 8, 10, 12, 16, 30, 32, 48, 64}) {
      const bool allowed = buckets >= range[0] && (powerOfTwo ? (buckets & (buckets - 1)) == 0 : buckets % 2 == 0);
      EXPECT_EQ(readStatus(emptyCuckoo(buckets, static_cast<uint8_t>(addressing))) == StatusCode::Ok, allowed)
          << buckets << " buckets";
    }
    // The upper bound (no table that large is built: the reader refuses the
    // count itself before it looks at the payload).
    const Bytes smallest = emptyCuckoo(2, static_cast<uint8_t>(addressing));
    const auto message = [&](uint64_t buckets) {
      const Bytes bytes = changed(smallest, kParamsAt, 8, buckets);
      return CuckooFilter::deserialize(bytes.data(), bytes.size()).status().message();
    };
    EXPECT_EQ(message(range[1]).find("too large"), std::string::npos) << range[1] << " buckets";
    EXPECT_NE(message(range[1] * 2).find("too large"), std::string::npos) << range[1] * 2 << " buckets";
    // What writes it: this build writes addressing 2; version-1 bytes read as addressing 1.
    const std::vector<uint64_t> writtenBy = numbersIn(row[2]);
    ASSERT_FALSE(writtenBy.empty());
    const Bytes v1 = goldenFile("v1/cuckoo.cbf");
    const uint64_t read1 = static_cast<uint64_t>(CuckooFilter::deserialize(v1.data(), v1.size()).value().addressing());
    const uint64_t written = goldenFile("cuckoo.cbf")[kParamsAt + 22];
    EXPECT_EQ(writtenBy[0] == kFormatVersion ? written : read1, addressing) << row[2];
  }
  EXPECT_EQ(addressings, (std::set<uint64_t>{static_cast<uint64_t>(CuckooAddressing::XorPowerOfTwo),
                                             static_cast<uint64_t>(CuckooAddressing::SubtractModulo)}));
}

TEST(DocsTables, FormatUrlSchemesAreTheSchemesTheReaderTakes) {
  const std::vector<Row> rows = tableRows(repositoryFile(kFormat), "FORMAT.md URL schemes",
                                          "| scheme | depth field | a URL is checked against | from version |");
  const Bytes envelope = blocklistOf(goldenFile("bloom.cbf"));
  const auto withScheme = [&](Bytes bytes, uint32_t scheme) {
    writeLE(bytes, kParamsAt, 4, scheme);
    writeLE(bytes, kParamsAt + 4, 4, scheme == kExpressionSchemeSafeBrowsingV1 ? 0 : (5 | (3 << 16)));
    reseal(bytes);
    return decodeUrlBlocklist(bytes.data(), bytes.size()).status().code();
  };
  std::set<uint64_t> listed, taken;
  for (const Row& row : rows) {
    SCOPED_TRACE("FORMAT.md URL scheme " + row[0]);
    const uint64_t scheme = std::stoull(row[0]);
    listed.insert(scheme);
    // From the version it names on: a version-1 envelope takes it only if that is 1.
    const uint64_t from = std::stoull(row[3]);
    const Bytes version1 = blobOfTypeInVersion(static_cast<uint64_t>(FilterType::UrlBlocklist), 1);
    EXPECT_EQ(withScheme(version1, static_cast<uint32_t>(scheme)) == StatusCode::Ok, from <= 1) << "from version " << from;
  }
  for (uint32_t scheme = 0; scheme <= 16; ++scheme) {
    const StatusCode code = withScheme(envelope, scheme);
    if (code == StatusCode::Ok) taken.insert(scheme);
    else EXPECT_EQ(code, StatusCode::UnsupportedVersion) << "scheme " << scheme;
  }
  EXPECT_EQ(listed, taken) << "FORMAT.md lists " << asText(listed) << "; decodeUrlBlocklist takes " << asText(taken);
}

}  // namespace
}  // namespace cuckoo_bloom
