// SPDX-License-Identifier: BSD-3-Clause
// The SFU legality table: for every rule of the seeds' legality and exception lists (ADR 0082, the
// TCOLMIN page) and the ASL schema functions, an accepted and a rejected bundle on each operation
// the rule governs. A rejection asserts the fault class, the rule text and that the complete
// architectural state is unchanged; the same rejected bundle with every mask 0000 is a strict no-op.
// Rule by rule audit: docs/isa-coverage.md "SFU operations". The DataType domains have their own
// test (preflight_test.cpp: every operation x all 25 DataTypes).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "tests/model/sfu/sfu_test_util.h"

namespace ptosim::model {
namespace {

using sfu_test::fill;
using sfu_test::Machine;
using sfu_test::minimal_bundle;

/// `text` with the first `from` replaced by `to` (which must occur).
std::string sub(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  INFO(text << "\nmust contain: " << from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// The minimal bundle unchanged (a rule whose rejected case is the minimal bundle in a changed state).
std::string same(const std::string& b, Operation) { return b; }

/// `text` with every `from` replaced by `to`.
std::string sub_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// Inserts `line` before the first B.IOT.
std::string before_iot(const std::string& text, const std::string& line) { return sub(text, "B.IOT", line + "B.IOT"); }

/// Adds a B.DATR field: to the existing B.DATR line, or as a new one after BSTART.
std::string with_datr(const std::string& text, const std::string& field) {
  if (text.find("B.DATR ") != std::string::npos) return sub(text, "B.DATR ", "B.DATR " + field + ", ");
  return sub(text, "\n", "\nB.DATR " + field + "\n");
}

bool is_reduction(Operation op) {
  return op <= Operation::TROWPROD || op == Operation::TROWARGMAX || op == Operation::TROWARGMIN ||
         (op >= Operation::TCOLSUM && op <= Operation::TCOLPROD) || op == Operation::TCOLARGMAX ||
         op == Operation::TCOLARGMIN;
}
bool is_expansion(Operation op) {
  return (op >= Operation::TROWEXPAND && op <= Operation::TROWEXPANDEXPDIF) ||
         (op >= Operation::TCOLEXPAND && op <= Operation::TCOLEXPANDEXPDIF);
}
bool is_row(Operation op) { return op <= Operation::TROWARGMIN; }
bool is_copy(Operation op) { return op == Operation::TROWEXPAND || op == Operation::TCOLEXPAND; }

std::vector<Operation> sfu_operations() {
  std::vector<Operation> out;
  for (int i = 0; i < kOperationCount; ++i)
    if (operation_engine(static_cast<Operation>(i)) == Engine::Sfu) out.push_back(static_cast<Operation>(i));
  return out;
}
std::vector<Operation> operations_where(bool (*pred)(Operation)) {
  std::vector<Operation> out;
  for (Operation op : sfu_operations())
    if (pred(op)) out.push_back(op);
  return out;
}

/// A DataType every operation accepts that the rules below can use (FP32 where possible).
DataType default_type(Operation op) {
  switch (op) {
    case Operation::TCI: case Operation::TTRI: return DataType::S32;
    case Operation::THISTOGRAM: return DataType::U32;
    default: return DataType::FP32;
  }
}

/// One rule of the table. `setup` installs what the cases need beyond the minimal bundle's inputs;
/// `accepted` and `rejected` turn the minimal bundle into the two cases (nullptr: the minimal bundle
/// is the accepted case).
struct Rule {
  const char* name;    ///< the rule, as the seed or the ASL states it
  const char* source;  ///< where it is stated
  std::vector<Operation> ops;
  std::function<void(Machine&, Operation)> setup;
  std::function<std::string(const std::string&, Operation)> accepted;
  std::function<std::string(const std::string&, Operation)> rejected;
  FaultCode code;
  std::string text;  ///< part of the fault's rule text
  std::optional<DataType> type = std::nullopt;  ///< the BSTART type, default_type() when unset
};

void check_rule(const Rule& r) {
  for (Operation op : r.ops) {
    const DataType t = r.type.value_or(default_type(op));
    INFO(r.name << " [" << r.source << "] on " << operation_mnemonic(op) << " " << data_type_name(t));
    Machine accept, reject, noop;
    std::string base = minimal_bundle(accept, op, t);
    for (Machine* m : {&reject, &noop}) minimal_bundle(*m, op, t);
    if (r.setup)
      for (Machine* m : {&accept, &reject, &noop}) r.setup(*m, op);
    accept.commit(r.accepted ? r.accepted(base, op) : base);
    const std::string bad = r.rejected(base, op);
    reject.reject(bad, r.code, r.text);
    // Mask zero is a strict no-op before any check, read, allocation or fault.
    const test::Snapshot before = test::snapshot(noop.m);
    CHECK(noop.run1(sub_all(bad, "mask=1111", "mask=0000")).kind == BundleOutcome::Kind::Noop);
    CHECK(test::snapshot(noop.m) == before);
  }
}

void check_rules(const std::vector<Rule>& rules) {
  for (const Rule& r : rules) check_rule(r);
}

constexpr FaultCode kControl = FaultCode::BundleControl;
constexpr FaultCode kLegality = FaultCode::TileLegality;
constexpr FaultCode kAllocation = FaultCode::TileAllocation;

/// GPR inputs an operation consumes through B.IOR RegSrc0.. (ASL BundleOperationScalarBindingSchemaLegal).
unsigned gpr_inputs(Operation op) {
  return op == Operation::TFILLPAD ? 1 : op == Operation::TCI || op == Operation::TTRI ? 2 : 0;
}

/// A B.IOR naming r1 in its first `n` RegSrc slots.
std::string ior_line(unsigned n, const char* dst = "zero") {
  std::string line = "B.IOR ";
  for (unsigned i = 0; i < 3; ++i) line += i < n ? "r1, " : "zero, ";
  return line + "->" + dst + "\n";
}

TEST_CASE("SFU legality table: the rules every operation shares", "[sfu][legality]") {
  const std::vector<Operation> all = sfu_operations();
  REQUIRE(all.size() == 33);
  const std::vector<Rule> rules = {
      {"B.IOS is illegal", "seeds: 'B.IOR and B.IOS are illegal'; ASL BundleSharedBindingsUnconsumed", all, nullptr,
       nullptr, [](const std::string& b, Operation) { return before_iot(b, "B.IOS S3, mask=1111\n"); }, kLegality,
       "consumes no Shared register"},
      {"exactly one destination", "ASL BundleOperationBindingsComplete", all, nullptr, nullptr,
       [](const std::string& b, Operation) {
         return sub(sub(b, ", last, ->", ", ->"), "BSTOP", "B.IOT mask=1111, last, ->U<1>\nBSTOP");
       },
       kControl, "the block binds 2 and"},
      {"the operation's Local source count", "ASL BundleOperationBindingsComplete", all, nullptr, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.IOT U#9, mask=1111\n"); }, kControl,
       "Local source(s); the block binds 1 and"},
      {"the binding list is closed by 'last'", "ASL BundleOperationBindingsComplete", all, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, ", last", ""); }, kControl, "is not closed by 'last'"},
      {"B.IOR RegSrc slots beyond the operation's GPR inputs are zero",
       "seeds: 'RegSrc1, RegSrc2 ... MUST be zero' (TFILLPAD), 'RegSrc2 ... MUST be zero' (TCI, TTRI); ASL "
       "BundleOperationScalarBindingSchemaLegal",
       all, nullptr,
       [](const std::string& b, Operation op) {
         // Reductions and expansions take no B.IOR at all (next rules): their accepted case has none.
         return gpr_inputs(op) == 0 ? b : before_iot(b, ior_line(gpr_inputs(op)));
       },
       [](const std::string& b, Operation op) { return before_iot(b, ior_line(gpr_inputs(op) + 1)); }, kControl,
       "must be zero"},
      {"B.IOR RegDst is zero", "seeds: 'RegDst ... MUST be zero'; ASL BundleOperationScalarBindingSchemaLegal", all,
       nullptr, nullptr, [](const std::string& b, Operation) { return before_iot(b, ior_line(0, "r1")); }, kControl,
       "RegDst must be zero"},
      {"B.IOR is illegal on reductions and expansions (even all-zero)",
       "seeds: 'B.IOR and B.IOS are illegal'; ASL SelectedBundleClosed{Reduction,Expansion}SchemaLegal",
       operations_where([](Operation op) { return is_reduction(op) || is_expansion(op); }), nullptr, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, ior_line(0)); }, kLegality, "takes no B.IOR"},
      {"an all-zero B.IOR is legal where the operation has no closed scalar schema",
       "seeds: 'an explicitly present all-zero B.IOR ... supplies the same values' (TFILLPAD, TCI, TTRI); "
       "docs/isa-coverage.md (THISTOGRAM, TCONCAT)",
       operations_where([](Operation op) { return !is_reduction(op) && !is_expansion(op); }), nullptr,
       [](const std::string& b, Operation) { return before_iot(b, ior_line(0)); },
       [](const std::string& b, Operation) { return before_iot(b, ior_line(0, "r2")); }, kControl,
       "RegDst must be zero"},
  };
  check_rules(rules);
}

TEST_CASE("SFU legality table: B.DATR field applicability", "[sfu][legality]") {
  // ASL SelectedBundleTileDataAttributesLegal with the catalog datr_contract; seeds: "PadValueOrByteId
  // is the only applicable B.DATR field" (reductions, expansions), "Assigned Layout values govern
  // physical destination placement ... every other explicit nondefault data attribute is illegal"
  // (TFILLPAD), "Every explicit nondefault B.DATR field is illegal" (TCI, TTRI), "Every other
  // nondefault B.DATR field is illegal" (THISTOGRAM), Layout keeps its meaning (TCONCAT).
  struct Field {
    const char* text;
    bool (*applies)(Operation);
  };
  const auto none = [](Operation) { return false; };
  const Field fields[] = {
      {"cmode=ne", none},
      {"sat=1", none},
      {"canon=1", none},
      {"rmode=rtz", none},
      {"pad=max", [](Operation op) { return is_reduction(op) || is_expansion(op) || op == Operation::THISTOGRAM; }},
      {"layout=DN2ND", [](Operation op) { return op == Operation::TFILLPAD || op == Operation::TCONCAT; }},
      {"dtype=FP32",
       [](Operation op) { return op == Operation::TROWEXPANDEXPDIF || op == Operation::TCOLEXPANDEXPDIF; }},
  };
  std::vector<Rule> rules;
  for (const Field& f : fields) {
    std::vector<Operation> applicable, inapplicable;
    for (Operation op : sfu_operations())
      // THISTOGRAM's PadValueOrByteId (its ByteId) and DataType (U32) have their own rules below.
      if (op != Operation::THISTOGRAM || (std::string(f.text) != "pad=max" && std::string(f.text) != "dtype=FP32"))
        (f.applies(op) ? applicable : inapplicable).push_back(op);
    const std::string field = f.text;
    const std::string name = field.substr(0, field.find('='));
    // An EXPDIF B.DATR's DataType types its destination (an unnamed one is FP64): any other field
    // comes with DTYPE_NONE, which keeps the source's type.
    const auto datr = [field](const std::string& b, Operation op) {
      const bool expdif = op == Operation::TROWEXPANDEXPDIF || op == Operation::TCOLEXPANDEXPDIF;
      return with_datr(expdif && field.rfind("dtype=", 0) != 0 ? with_datr(b, "dtype=none") : b, field);
    };
    rules.push_back({"an inapplicable B.DATR field is zero", "see above", inapplicable, nullptr, nullptr, datr,
                     kLegality, "is not applicable to"});
    if (!applicable.empty())
      // The accepted case uses the field; the rejected one adds an inapplicable field next to it.
      rules.push_back({"an applicable B.DATR field may be non-zero", "see above", applicable, nullptr, datr,
                       [datr](const std::string& b, Operation op) { return with_datr(datr(b, op), "sat=1"); },
                       kLegality, "B.DATR Sat 1 is not applicable"});
  }
  // Layout codes 21..26 are GM<->CUBE transports, no layout transform of TFILLPAD or TCONCAT.
  rules.push_back({"B.DATR Layout is not a CUBE transport", "ASL CurrentBundleTileLayout (no case for 21..26)",
                   {Operation::TFILLPAD, Operation::TCONCAT}, nullptr,
                   [](const std::string& b, Operation) { return with_datr(b, "layout=NORM"); },
                   [](const std::string& b, Operation) { return with_datr(b, "layout=ND2M32"); }, kLegality,
                   "CUBE transport"});
  check_rules(rules);
}

TEST_CASE("SFU legality table: reductions and ARG (Decisions 097-100, 109-114, 123, 124)", "[sfu][legality]") {
  const std::vector<Operation> ops = operations_where(is_reduction);
  REQUIRE(ops.size() == 12);
  const auto rebind = [](const std::string& reg) {
    return [reg](const std::string& b, Operation) { return sub(b, "B.IOT U#1,", "B.IOT " + reg + ","); };
  };
  const std::vector<Rule> rules = {
      {"exactly one B.IOT", "ASL SelectedBundleClosedReductionSchemaLegal", ops, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "B.IOT U#1, mask=1111, last,", "B.IOT U#1, mask=1111\nB.IOT mask=1111, last,"); },
       kLegality, "takes exactly one B.IOT"},
      {"LB0 = ValidCol is required", "Decision 097 'LB0=ValidCol is required and nonzero'", ops, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "->LB0", "->LB1"); }, kLegality,
       "LB0 (source ValidCol) is required"},
      {"LB0 is non-zero", "Decision 097", ops, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "zero, 0, ->LB0"); }, kLegality,
       "LB0 (source ValidCol) must be non-zero"},
      {"LB1 and LB2 are non-zero when present", "ASL SelectedBundleComparisonDimensionsLegal", ops, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 1, ->LB1\nB.DIM zero, 2, ->LB2\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 0, ->LB1\n"); }, kLegality,
       "LB1 (source ValidRow) must be non-zero"},
      {"every participating PE reads the same LBs", "ASL: one core-wide B.DIM value; docs/isa-coverage.md", ops,
       [](Machine& m, Operation) {
         m.gpr(4, 1);                      // r4 + 1 = 2 on every PE
         m.m.state().set_gpr(2, 5, 1);     // r5 + 1 = 2 on PE2 only
       },
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "r4, 1, ->LB0"); },
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "r5, 1, ->LB0"); }, kLegality,
       "different values"},
      {"the source is allocated", "ASL TileOperandsLegal", ops, nullptr, nullptr, rebind("N#2"), kLegality,
       "N#2 is not allocated"},
      {"the source holds a fragment on every participating PE", "seeds: bindings share the PE_MASK; the source must hold a fragment on each participating PE", ops,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, fill(2, 0), Layout::RowMajor, PeMask(0b1100)); },
       [](const std::string& b, Operation) { return sub_all(sub(b, "U#1,", "U#5,"), "mask=1111", "mask=1100"); },
       rebind("U#5"), kLegality, "no payload fragment on PE2"},
      {"the source has the BSTART DataType", "Decision 097 'Source and destination use the same DataType'", ops,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP16, 128, 2, 1, 2, fill(2, 0)); }, nullptr,
       rebind("U#5"), kLegality, "is FP16; FP32 is required"},
      {"the source is row-major", "Decision 097 'The source is row-major'", ops,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, fill(2, 0), Layout::ColumnMajor); },
       nullptr, rebind("U#5"), kLegality, "RowMajor is required"},
      {"the source matches the LB geometry (ValidRow, ValidCol, Col)", "Decision 097 (LB defaults)", ops,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 4, 1, 2, fill(4, 0)); },
       [rebind](const std::string& b, Operation) { return before_iot(rebind("U#5")(b, Operation::TROWSUM), "B.DIM zero, 4, ->LB2\n"); },
       rebind("U#5"), kLegality, "the LBs give ValidRow 1, ValidCol 2, Col 2"},
      {"the source valid region is defined on every participating PE", "Decision 097 'MUST be defined'", ops,
       [](Machine& m, Operation) {
         m.tile_per_pe("U#5", DataType::FP32, 128, 2, 1, 2, {fill(2, 0), fill(2, 0), FragmentData{0, std::nullopt}, fill(2, 0)});
       },
       [rebind](const std::string& b, Operation) { return sub_all(rebind("U#5")(b, Operation::TROWSUM), "mask=1111", "mask=1100"); },
       rebind("U#5"), kLegality, "element [0,1] on PE2 is undefined"},
      {"a free register in the destination hand", "ASL ResolveBundleTileDestinations (TileAllocation)", ops,
       [](Machine& m, Operation) {
         for (unsigned k = 1; k <= 16; ++k) m.tile("T#" + std::to_string(k), DataType::U8, 128, 1, 1, 1, {0});
       },
       [](const std::string& b, Operation) { return sub(b, "->T<1>", "->M<1>"); }, same, kAllocation,
       "no free register in hand T"},
      {"TILE_CAPACITY", "ASL TileCapacityIsLegal (TileAllocation)", ops,
       [](Machine& m, Operation) { m.m.state().set_tile_capacity(m.m.state().capacity_in_use() + 128); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "->T<1>", "->T<2>"); }, kAllocation,
       "tile capacity exhausted"},
  };
  check_rules(rules);
  // Valid encodings (TF32/HF32 low bits zero): Decision 098 'Invalid source encodings reject before effects'.
  for (DataType t : {DataType::TF32, DataType::HF32})
    check_rule({"source encodings are valid", "Decision 098; ASL TileSourceEncodingsValid", ops,
                [t](Machine& m, Operation) { m.tile("U#5", t, 128, 2, 1, 2, {0x3F800000, 0x3F800001}); }, nullptr,
                rebind("U#5"), kLegality, "is an invalid", t});
  // The destination's TSize holds ValidRow rows (row form) / Col columns (column form).
  check_rule({"the destination TSize holds the result (row form)", "Decision 097 'MUST be at least source.ValidRow'",
              {Operation::TROWSUM, Operation::TROWARGMAX},
              [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 256, 1, 40, 1, fill(40, 0)); },
              [](const std::string& b, Operation) {
                return sub(sub(sub(b, "U#1,", "U#5,"), "zero, 2, ->LB0", "zero, 1, ->LB0\nB.DIM zero, 40, ->LB1"), "T<1>", "T<2>");
              },
              [](const std::string& b, Operation) {
                return sub(sub(b, "U#1,", "U#5,"), "zero, 2, ->LB0", "zero, 1, ->LB0\nB.DIM zero, 40, ->LB1");
              },
              kAllocation, "gives 32 rows; too small"});
  check_rule({"the destination TSize holds the result (column form)", "Decision 111 'Col=source.Col'",
              {Operation::TCOLSUM, Operation::TCOLARGMIN},
              [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 256, 64, 1, 64, fill(64, 0)); },
              [](const std::string& b, Operation) {
                return sub(sub(sub(b, "U#1,", "U#5,"), "zero, 2, ->LB0", "zero, 64, ->LB0"), "T<1>", "T<2>");
              },
              [](const std::string& b, Operation) { return sub(sub(b, "U#1,", "U#5,"), "zero, 2, ->LB0", "zero, 64, ->LB0"); },
              kAllocation, "cannot hold"});
}

TEST_CASE("SFU legality table: expansions (Decisions 101-108, 115-122)", "[sfu][legality]") {
  const std::vector<Operation> ops = operations_where(is_expansion);
  REQUIRE(ops.size() == 16);
  std::vector<Operation> arith;
  for (Operation op : ops)
    if (!is_copy(op)) arith.push_back(op);
  // The broadcast is U#2 (both forms), the full-shape source U#1.
  const auto rebind_bcast = [](const std::string& reg) {
    return [reg](const std::string& b, Operation) { return sub(b, "U#2, mask", reg + ", mask"); };
  };
  const auto rebind_src = [](const std::string& reg) {
    return [reg](const std::string& b, Operation) { return sub(b, "B.IOT U#1,", "B.IOT " + reg + ","); };
  };
  // A broadcast (row: 1x1 Col 1; column: 1x2 Col 2) of `t`, `layout`, with `data`, at U#6.
  const auto bcast = [](DataType t, Layout layout, FragmentData data) {
    return [=](Machine& m, Operation op) {
      if (is_row(op)) m.tile("U#6", t, 128, 1, 1, 1, {data[0]}, layout);
      else m.tile("U#6", t, 128, 2, 1, 2, data, layout);
    };
  };
  const FragmentData one = fill(2, 0x3F800000);
  const std::vector<Rule> rules = {
      {"exactly one B.IOT", "ASL SelectedBundleClosedExpansionSchemaLegal", ops, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "mask=1111, last,", "mask=1111\nB.IOT mask=1111, last,"); },
       kLegality, "takes exactly one B.IOT"},
      {"LB0 = destination ValidCol is required", "Decisions 101, 115 'LB0=destination.ValidCol is required'", ops,
       nullptr, nullptr, [](const std::string& b, Operation) { return sub(b, "->LB0", "->LB1"); }, kLegality,
       "LB0 (destination ValidCol) is required"},
      {"LB0 is non-zero", "Decisions 101, 115", ops, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "zero, 0, ->LB0"); }, kLegality,
       "LB0 (destination ValidCol) must be non-zero"},
      {"LB1 and LB2 are non-zero when present", "ASL SelectedBundleComparisonDimensionsLegal", ops, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 1, ->LB1\nB.DIM zero, 2, ->LB2\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 0, ->LB2\n"); }, kLegality,
       "LB2 (destination Col) must be non-zero"},
      {"the broadcast source is allocated", "ASL TileOperandsLegal", ops, nullptr, nullptr, rebind_bcast("N#2"),
       kLegality, "broadcast source N#2 is not allocated"},
      {"the broadcast source has the BSTART DataType", "Decisions 101, 102 'All operands use the same DataType'", ops,
       bcast(DataType::FP16, Layout::RowMajor, fill(2, 0x3C00)), nullptr, rebind_bcast("U#6"), kLegality,
       "broadcast source U#6 is FP16; FP32 is required"},
      {"the broadcast source is row-major", "Decisions 101, 115 'row-major'", ops,
       bcast(DataType::FP32, Layout::ColumnMajor, one), nullptr, rebind_bcast("U#6"), kLegality,
       "RowMajor is required"},
      {"the broadcast source is defined", "Decisions 101, 115 'MUST be defined'", ops,
       bcast(DataType::FP32, Layout::RowMajor, {std::nullopt, std::nullopt}), nullptr, rebind_bcast("U#6"), kLegality,
       "broadcast source U#6 element [0,0] on PE0 is undefined"},
      {"the broadcast shape (row: ValidRow x 1, Col 1; column: 1 x ValidCol, Col = destination Col)",
       "Decisions 101, 102, 115, 116", ops,
       [](Machine& m, Operation op) {
         // The other form's broadcast: a 1x2 Col 2 tile for a row form, a 1x1 Col 1 tile for a column form.
         if (is_row(op)) m.tile("U#6", DataType::FP32, 128, 2, 1, 2, fill(2, 0x3F800000));
         else m.tile("U#6", DataType::FP32, 128, 1, 1, 1, {0x3F800000});
       },
       nullptr, rebind_bcast("U#6"), kLegality, "broadcast needs"},
      {"the full-shape source is allocated", "ASL TileOperandsLegal", arith, nullptr, nullptr, rebind_src("N#2"),
       kLegality, "source N#2 is not allocated"},
      {"the full-shape source has the BSTART DataType", "Decision 102 'All operands use the same DataType'", arith,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP16, 128, 2, 1, 2, fill(2, 0)); }, nullptr,
       rebind_src("U#5"), kLegality, "source U#5 is FP16; FP32 is required"},
      {"the full-shape source is row-major", "Decision 102 'identical ... row-major layout'", arith,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, fill(2, 0), Layout::ColumnMajor); },
       nullptr, rebind_src("U#5"), kLegality, "RowMajor is required"},
      {"the full-shape source is defined", "Decision 102 'Both source valid regions MUST be defined'", arith,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, {0, std::nullopt}); }, nullptr,
       rebind_src("U#5"), kLegality, "source U#5 element [0,1] on PE0 is undefined"},
      {"the full-shape source has the destination's valid shape and Col", "Decision 102 'identical physical shape, valid shape'",
       arith, [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 4, 1, 2, fill(4, 0)); },
       [](const std::string& b, Operation op) {
         std::string t = sub(sub(b, "B.IOT U#1,", "B.IOT U#5,"), "zero, 2, ->LB0", "zero, 2, ->LB0\nB.DIM zero, 4, ->LB2");
         // The column broadcast follows the destination Col.
         return is_row(op) ? t : sub(t, "U#2, mask", "U#7, mask");
       },
       rebind_src("U#5"), kLegality, "the LBs give ValidRow 1, ValidCol 2, Col 2"},
      {"the full-shape source has the destination's physical rows (TSize)",
       "Decision 102 'source0 and the destination have identical physical shape'", arith,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 256, 2, 1, 2, fill(2, 0)); },
       [](const std::string& b, Operation) { return sub(sub(b, "B.IOT U#1,", "B.IOT U#5,"), "T<1>", "T<2>"); },
       rebind_src("U#5"), kLegality, "physical rows; the destination's TSize gives 16"},
      {"a free register in the destination hand", "ASL ResolveBundleTileDestinations (TileAllocation)", ops,
       [](Machine& m, Operation) {
         for (unsigned k = 1; k <= 16; ++k) m.tile("T#" + std::to_string(k), DataType::U8, 128, 1, 1, 1, {0});
       },
       [](const std::string& b, Operation) { return sub(b, "->T<1>", "->M<1>"); }, same, kAllocation,
       "no free register in hand T"},
  };
  // The column broadcast of the LB2 = 4 case.
  std::vector<Rule> all = rules;
  for (Rule& r : all)
    if (std::string(r.name).rfind("the full-shape source has the destination's valid shape", 0) == 0) {
      const auto inner = r.setup;
      r.setup = [inner](Machine& m, Operation op) {
        inner(m, op);
        m.tile("U#7", DataType::FP32, 128, 4, 1, 2, fill(2, 0x3F800000));
      };
    }
  check_rules(all);
  for (DataType t : {DataType::TF32, DataType::HF32})
    check_rule({"source encodings are valid", "Decision 098 via 102; ASL closed expansion schema", ops,
                [t](Machine& m, Operation op) {
                  if (is_row(op)) m.tile("U#6", t, 128, 1, 1, 1, {0x3F800001});
                  else m.tile("U#6", t, 128, 2, 1, 2, {0x3F800000, 0x3F800001});
                },
                nullptr, rebind_bcast("U#6"), kLegality, "is an invalid", t});
  // Decisions 105, 119: a zero integer divisor the valid region uses -> Illegal Block Exception.
  for (DataType t : {DataType::U8, DataType::S16, DataType::U32, DataType::S64})
    check_rule({"no zero integer divisor in a selected row/column", "Decisions 105, 119; ASL TileBroadcastPayloadNonzero",
                {Operation::TROWEXPANDDIV, Operation::TCOLEXPANDDIV},
                [t](Machine& m, Operation op) {
                  if (is_row(op)) m.tile("U#6", t, 128, 1, 1, 1, {0});
                  else m.tile("U#6", t, 128, 2, 1, 2, {3, 0});
                },
                nullptr, rebind_bcast("U#6"), kLegality, "integer zero divisor in broadcast", t});
}

TEST_CASE("SFU legality table: TCI and TTRI (Decisions 130, 131)", "[sfu][legality]") {
  const std::vector<Operation> both = {Operation::TCI, Operation::TTRI};
  const std::vector<Rule> rules = {
      {"LB0 = ValidCol is required", "Decision 130 'ValidCol MUST be nonzero'; ASL generation schema", both, nullptr,
       nullptr, [](const std::string& b, Operation) { return sub(b, "->LB0", "->LB1"); }, kLegality,
       "LB0 (destination ValidCol) is required"},
      {"LB0 is non-zero", "Decisions 130, 131", both, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "zero, 0, ->LB0"); }, kLegality,
       "LB0 (destination ValidCol) must be non-zero"},
      {"physical Col >= ValidCol", "Decisions 130, 131 'MUST be at least ValidCol'", both, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 2, ->LB2\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 1, ->LB2\n"); }, kLegality,
       "is smaller than LB0"},
      {"TCI ValidRow is one", "Decision 130 'ValidRow MUST equal one'", {Operation::TCI}, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 1, ->LB1\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 2, ->LB1\n"); }, kLegality,
       "TCI generates exactly one row"},
      {"TTRI ValidRow is non-zero", "Decision 131 'nonzero ValidRow'", {Operation::TTRI}, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 3, ->LB1\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 0, ->LB1\n"); }, kLegality,
       "LB1 (destination ValidRow) must be non-zero"},
      {"RegSrc1 (direction / orientation) is exactly 0 or 1", "Decisions 130, 131 'MUST contain exactly zero ... or one'",
       both,
       [](Machine& m, Operation) {
         m.gpr(1, 1);
         m.gpr(2, 2);
       },
       [](const std::string& b, Operation) { return before_iot(b, "B.IOR zero, r1, zero, ->zero\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.IOR zero, r2, zero, ->zero\n"); }, kLegality,
       "it must be exactly 0 or 1"},
      {"TTRI diagonal in -65535..65535", "Decision 131", {Operation::TTRI},
       [](Machine& m, Operation) {
         m.gpr(1, static_cast<std::uint64_t>(-65535));
         m.gpr(2, 65536);
       },
       [](const std::string& b, Operation) { return before_iot(b, "B.IOR r1, zero, zero, ->zero\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.IOR r2, zero, zero, ->zero\n"); }, kLegality,
       "it must lie in -65535..65535"},
      {"the destination Col is a power of two (allocation)", "ASL destination shape (TileAllocation)", both, nullptr,
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "zero, 3, ->LB0\nB.DIM zero, 4, ->LB2"); },
       [](const std::string& b, Operation) { return sub(b, "zero, 2, ->LB0", "zero, 3, ->LB0"); }, kAllocation,
       "Col must be a power of two"},
  };
  check_rules(rules);
}

TEST_CASE("SFU legality table: THISTOGRAM (Decision 132)", "[sfu][legality]") {
  const std::vector<Operation> op = {Operation::THISTOGRAM};
  // The minimal bundle: U32 source U#1 1x2, U8 filter U#2 1x1, ByteId 3 (unfiltered), ->T<4>.
  const auto filtered = [](const std::string& b, Operation) { return sub(b, "byteid=3", "byteid=2"); };
  const std::vector<Rule> rules = {
      {"exactly one B.IOT", "ASL SelectedBundleClosedHistogramSchemaLegal", op, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "B.IOT U#1, U#2,", "B.IOT U#1, mask=1111\nB.IOT U#2,"); },
       kLegality, "THISTOGRAM takes exactly one B.IOT"},
      {"no B.DIM", "ASL histogram schema (the shape comes from the source)", op, nullptr, nullptr,
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 2, ->LB0\n"); }, kLegality,
       "takes no B.DIM"},
      {"B.DATR is mandatory", "Decision 132 'B.DATR is therefore mandatory'", op, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "B.DATR dtype=U32, byteid=3\n", ""); }, kLegality,
       "requires B.DATR"},
      {"B.DATR DataType is U32", "Decision 132 'MUST encode destination U32'", op, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "dtype=U32", "dtype=U16"); }, kLegality,
       "must be U32 (25)"},
      {"the source has the BSTART DataType", "Decision 132 'The source DataType is selected by BSTART'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::U16, 128, 2, 1, 2, fill(2, 0)); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); }, kLegality, "BSTART selects U32"},
      {"the source is row-major", "Decision 132 'Source and destination use row-major layout'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::U32, 128, 2, 1, 2, fill(2, 0), Layout::ColumnMajor); },
       nullptr, [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); }, kLegality,
       "RowMajor is required"},
      {"the source is defined", "Decision 132 'consumed-source definedness'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::U32, 128, 2, 1, 2, {0, std::nullopt}); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); }, kLegality, "is undefined"},
      {"the filter is U8", "Decision 132 'The filter Tile has DataType U8'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::U16, 128, 1, 1, 1, {0}); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#2,", "U#5,"); }, kLegality, "U8 is required"},
      {"ByteId of a U16 source is 0 or 1", "Decision 132 'Values two and three are illegal'", op, nullptr,
       [](const std::string& b, Operation) { return sub(b, "byteid=1", "byteid=0"); },
       [](const std::string& b, Operation) { return sub(b, "byteid=1", "byteid=2"); }, kLegality,
       "is not defined for a U16 source", DataType::U16},
      {"the filter has the rows the ByteId consumes", "Decision 132 'at least the required number of valid rows'", op,
       nullptr, filtered, [](const std::string& b, Operation) { return sub(b, "byteid=3", "byteid=1"); }, kLegality,
       "consumes column 0 of 2 valid row(s)"},
      {"the consumed filter elements are defined", "Decision 132 'every consumed [row,0] element is defined'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::U8, 128, 1, 2, 1, {0, std::nullopt}); },
       [filtered](const std::string& b, Operation) { return sub(filtered(b, Operation::THISTOGRAM), "U#2,", "U#5,"); },
       [](const std::string& b, Operation) { return sub(sub(b, "byteid=3", "byteid=1"), "U#2,", "U#5,"); }, kLegality,
       "element [1,0] on PE0 is undefined"},
      {"the destination TSize holds ValidRow x 256 U32", "Decision 132 'enough capacity for all valid output rows'", op,
       nullptr, nullptr, [](const std::string& b, Operation) { return sub(b, "T<4>", "T<3>"); }, kAllocation,
       "cannot hold"},
  };
  check_rules(rules);
}

TEST_CASE("SFU legality table: TFILLPAD (Decision 129)", "[sfu][legality]") {
  const std::vector<Operation> op = {Operation::TFILLPAD};
  // The minimal bundle: FP32 source U#1 1x2 of Col 2 (32 rows), in-place form ->T<1>.
  const std::vector<Rule> rules = {
      {"destination ValidCol >= source ValidCol", "Decision 129 'its ValidRow and ValidCol MUST be at least'", op,
       nullptr, [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 2, ->LB0\n"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 1, ->LB0\n"); }, kLegality,
       "smaller than source"},
      {"destination ValidRow >= source ValidRow", "Decision 129", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 3, 2, fill(6, 0)); },
       [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); },
       [](const std::string& b, Operation) { return before_iot(sub(b, "U#1,", "U#5,"), "B.DIM zero, 2, ->LB1\n"); },
       kLegality, "smaller than source"},
      {"destination Col >= source Col", "Decision 129 'physical Rows and Col MUST be at least'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 4, 1, 1, {0}); },
       [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); },
       [](const std::string& b, Operation) { return before_iot(sub(b, "U#1,", "U#5,"), "B.DIM zero, 2, ->LB2\n"); },
       kLegality, "smaller than source"},
      {"destination physical rows >= source rows", "Decision 129 'physical Rows and Col MUST be at least'", op, nullptr,
       // Source: 16 rows of Col 2. Col 4 in 256 B gives 16 rows, in 128 B only 8.
       [](const std::string& b, Operation) { return sub(before_iot(b, "B.DIM zero, 4, ->LB2\n"), "T<1>", "T<2>"); },
       [](const std::string& b, Operation) { return before_iot(b, "B.DIM zero, 4, ->LB2\n"); }, kLegality,
       "smaller than source"},
      {"the source has the BSTART DataType", "Decision 129 'Source and destination use the same selected DataType'",
       op, [](Machine& m, Operation) { m.tile("U#5", DataType::FP16, 128, 2, 1, 2, fill(2, 0)); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); }, kLegality, "BSTART selects FP32"},
      {"the source valid region is defined", "Decision 129 'source-valid-region definedness'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, {0, std::nullopt}); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); }, kLegality, "is undefined"},
      {"a fractal destination has whole fractals", "ASL TileLayoutShapeLegal (ZN/NZ)", op, nullptr,
       [](const std::string& b, Operation) {
         // 16 rows of 16 FP32 columns: 1 KiB.
         return sub(sub(with_datr(b, "layout=ND2ZN"), "B.IOT", "B.DIM zero, 16, ->LB2\nB.IOT"), "T<1>", "T<4>");
       },
       [](const std::string& b, Operation) { return with_datr(b, "layout=ND2ZN"); }, kLegality,
       "ZN needs rows % 16 == 0"},
  };
  check_rules(rules);
}

TEST_CASE("SFU legality table: TCONCAT (Decision 125)", "[sfu][legality]") {
  const std::vector<Operation> op = {Operation::TCONCAT};
  // The minimal bundle: FP32 U#1 and U#2, 1x2 of Col 2; LB0 = 4, LB2 = 4.
  const std::vector<Rule> rules = {
      {"both sources have the BSTART DataType", "Decision 125 'MUST use the same DataType'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::S32, 128, 2, 1, 2, fill(2, 0)); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#2,", "U#5,"); }, kLegality, "S32"},
      {"both sources are row-major", "Decision 125 'row-major layout'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, fill(2, 0), Layout::ColumnMajor); },
       nullptr, [](const std::string& b, Operation) { return sub(b, "U#1,", "U#5,"); }, kLegality,
       "TCONCAT sources are RowMajor"},
      {"the destination is row-major", "Decision 125 (seeds) over the ASL: docs/isa-coverage.md", op, nullptr,
       [](const std::string& b, Operation) { return with_datr(b, "layout=DN2ND"); },
       [](const std::string& b, Operation) { return with_datr(b, "layout=ND2DN"); }, kLegality,
       "TCONCAT writes RowMajor"},
      {"both sources have the same ValidRow", "Decision 125 'Both sources MUST have the same nonzero ValidRow'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 2, 2, fill(4, 0)); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#2,", "U#5,"); }, kLegality, "they must match"},
      {"destination ValidCol = left + right ValidCol", "Decision 125", op, nullptr, nullptr,
       [](const std::string& b, Operation) { return sub(b, "zero, 4, ->LB0", "zero, 3, ->LB0"); }, kLegality,
       "destination valid shape"},
      {"the sources are defined", "Decision 125 'The complete valid regions of both sources are required defined'", op,
       [](Machine& m, Operation) { m.tile("U#5", DataType::FP32, 128, 2, 1, 2, {std::nullopt, 0}); }, nullptr,
       [](const std::string& b, Operation) { return sub(b, "U#2,", "U#5,"); }, kLegality, "is undefined"},
  };
  check_rules(rules);
}

/// A CUBE_M16 tile of `t` (location Matrix, zeros) at `reg`: a layout no SFU operand may have.
void install_cube(Machine& m, const std::string& reg, DataType t) {
  TileDescriptor d;
  d.dtype = t;
  const auto shape = cube_storage_shape(Layout::CubeM16, t, 1, 2);
  REQUIRE(shape);
  d.rows = shape->rows;
  d.cols = shape->cols;
  d.valid_rows = 1;
  d.valid_cols = 2;
  d.layout = Layout::CubeM16;
  d.location = Location::Matrix;
  d.pe_mask = PeMask::all();
  d.capacity_bytes = 128;
  while (d.capacity_bytes < d.storage_bytes()) d.capacity_bytes *= 2;
  REQUIRE_FALSE(descriptor_problem(d));
  std::array<FragmentData, kPeCount> data;
  data.fill(FragmentData(d.element_count(), 0));
  m.m.load_local(test::reg_index(reg), d, data);
}

TEST_CASE("SFU legality table: sources have generic layouts", "[sfu][legality]") {
  // ASL TileOperandsLegal (generic layouts only); the seeds require row-major sources, which a
  // CUBE layout is not either.
  check_rule({"the source is not in a CUBE layout", "ASL TileOperandsLegal_* (generic layouts only)",
              operations_where([](Operation op) {
                return is_reduction(op) || (is_expansion(op) && !is_copy(op)) || op == Operation::TFILLPAD ||
                       op == Operation::TCONCAT || op == Operation::THISTOGRAM;
              }),
              [](Machine& m, Operation op) { install_cube(m, "U#5", default_type(op)); }, nullptr,
              [](const std::string& b, Operation) { return sub(b, "B.IOT U#1,", "B.IOT U#5,"); }, kLegality,
              "has the CUBE layout CUBE_M16"});
  check_rule({"the broadcast source is not in a CUBE layout", "ASL TileOperandsLegal_* (generic layouts only)",
              operations_where(is_expansion), [](Machine& m, Operation) { install_cube(m, "U#5", DataType::FP32); },
              nullptr, [](const std::string& b, Operation) { return sub(b, "U#2, mask", "U#5, mask"); }, kLegality,
              "has the CUBE layout CUBE_M16"});
}

}  // namespace
}  // namespace ptosim::model
