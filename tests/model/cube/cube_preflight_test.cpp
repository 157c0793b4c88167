// SPDX-License-Identifier: BSD-3-Clause
// Every rejection rule of the CUBE dispatch contract (model/cube/cube_preflight.cpp): the fault
// class, the rule text, and that nothing changed (registers, payloads, capacity, flags). Rules the
// front end already enforces are driven with Bundles built directly.
#include <catch2/catch.hpp>

#include <sstream>

#include "model/cube/cube_preflight.h"
#include "tests/model/cube/cube_test_util.h"

namespace ptosim::model::cube_test {
namespace {

constexpr FaultCode kLegality = FaultCode::TileLegality;

/// A legal 2x2x2 FP16 TMATMUL (A T#1, B T#3) installed in `mc`; returns its program.
std::string base(Machine& mc, Operation op = Operation::TMATMUL) {
  FormSpec f;
  f.op = op;
  f.m = f.n = f.k = 2;
  return setup(mc, f);
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// Every field of a CUBE plan, as text.
std::string describe(const ExecPlan& p) {
  std::ostringstream s;
  const auto desc = [&s](const TileDescriptor& d) {
    s << int(d.dtype) << ' ' << d.capacity_bytes << ' ' << d.rows << 'x' << d.cols << ' ' << d.valid_rows << 'x'
      << d.valid_cols << ' ' << int(d.layout) << ' ' << int(d.location) << ' ' << int(d.pe_mask.bits());
  };
  s << int(p.op) << ' ' << int(p.dtype) << ' ' << int(p.mask.bits());
  for (const SourceOperand& o : p.sources) {
    s << " src " << o.ref.name() << '@' << o.slot << ' ';
    desc(o.desc);
  }
  for (const DestOperand& o : p.dests) {
    s << " dst " << int(o.hand) << ' ' << o.desc_checked << ' ';
    desc(o.desc);
  }
  for (const std::string& c : p.skipped_checks) s << " skipped " << c;
  const CubeArgs& a = p.cube();
  s << " args " << a.m << ' ' << a.n << ' ' << a.k << ' ' << int(a.a_dtype) << int(a.b_dtype) << int(a.acc_dtype)
    << int(a.out_dtype) << a.mx << a.bias << a.accumulate << a.trans_a << a.trans_b << ' ' << a.src_c << a.src_a
    << a.src_sa << a.src_b << a.src_sb << a.src_bias << a.src_row_max_in << a.src_quant << a.src_relu << a.dst_row_max
    << a.dst_group_max << ' ' << int(a.fpatr.prequant_mode) << int(a.fpatr.relu_mode) << a.fpatr.group_n
    << a.fpatr.row_max << a.fpatr.group_max << a.fpatr.row_max_init << a.fpatr.max_abs << int(a.rounding) << a.saturate;
  for (int pe = 0; pe < kPeCount; ++pe) s << ' ' << a.quant_param[pe] << ':' << a.relu_param[pe];
  return s.str();
}

TEST_CASE("CUBE preflight: facts kept of a bundle stand in for its bundle-only checks, never for its tile checks",
          "[cube]") {
  FormSpec acc;
  acc.op = Operation::TMATMUL_ACC;
  acc.m = acc.n = acc.k = 2;
  FormSpec shared_b;
  shared_b.m = shared_b.n = shared_b.k = 16;
  shared_b.shared_b = true;
  FormSpec mx;
  mx.op = Operation::TMATMUL_MX_BIAS;
  mx.a = mx.b = DataType::E4M3;
  mx.m = mx.n = 16;
  mx.k = 64;
  mx.a_fn = mx.b_fn = fill(0x38);
  FormSpec scalars;
  scalars.prequant = 24;  // QF322B8_PRE: a scalar parameter from B.IOR
  scalars.fpatr_fields = "relumode=2, rowmaxen=1";
  scalars.extra_lines = "B.IOR r5, r6, zero, ->zero\n";
  scalars.extra_dests = {"N<1>"};
  const std::uint64_t one = std::uint64_t{127} << 10 << 13, half = std::uint64_t{126} << 10;
  for (const FormSpec& f : {acc, shared_b, mx, scalars}) {
    Machine mc;
    const std::string text = setup(mc, f);
    mc.gpr(5, one);
    mc.gpr(6, half);
    INFO(text);
    const Bundle b = Machine::bundle_of(text);
    const IPayloadReader* values = &mc.m.payloads();
    ExecPlan plain, first, second;
    REQUIRE_FALSE(cube_preflight(b, mc.m.state(), values, plain));
    std::optional<CubeBundleFacts> memo;
    REQUIRE_FALSE(cube_preflight(b, mc.m.state(), values, first, &memo));
    REQUIRE(memo);
    REQUIRE_FALSE(cube_preflight(b, mc.m.state(), values, second, &memo));
    CHECK(describe(first) == describe(plain));
    CHECK(describe(second) == describe(plain));
    // The tile state is read afresh: a PE's parameter word, or B, made illegal after the facts
    // were kept faults as without them.
    const auto same_fault = [&](const char* rule) {
      ExecPlan p, q;
      const Status without = cube_preflight(b, mc.m.state(), values, p);
      const Status with = cube_preflight(b, mc.m.state(), values, q, &memo);
      REQUIRE(without);
      REQUIRE(with);
      CHECK(with->rule == without->rule);
      CHECK(with->rule.find(rule) != std::string::npos);
    };
    if (f.prequant != 0) {
      mc.m.state().set_gpr(2, 5, one | 1);
      same_fault("B.IOR QuantParam 0x3f800001 on PE2");
    } else if (!f.shared_b) {
      mc.ordinary("T#3", DataType::FP16, 128, 8, 1, 8, fill(0));
      same_fault("B T#3");
    }
  }
  // A bundle that fails a bundle-only check leaves no facts.
  Machine mc;
  Bundle b = Machine::bundle_of(setup(mc, acc));
  b.fpatr->relu_mode = 4;
  std::optional<CubeBundleFacts> memo;
  ExecPlan plan;
  REQUIRE(cube_preflight(b, mc.m.state(), nullptr, plan, &memo));
  CHECK_FALSE(memo);
}

TEST_CASE("CUBE preflight: B.FPATR is mandatory and exactly once", "[cube]") {
  Machine mc;
  const std::string text = base(mc);
  mc.reject(replace(text, "B.FPATR\n", ""), FaultCode::BundleControl, "TMATMUL has no B.FPATR");
  Bundle b = Machine::bundle_of(text);
  b.fpatr_count = 2;
  mc.reject(b, FaultCode::BundleControl, "TMATMUL has 2 B.FPATR");
  b = Machine::bundle_of(text);
  b.fpatr->prequant_mode = 6;
  mc.reject(b, FaultCode::IllegalInstruction, "B.FPATR PreQuantMode 6 is reserved");
  b = Machine::bundle_of(text);
  b.fpatr->relu_mode = 4;
  mc.reject(b, FaultCode::IllegalInstruction, "B.FPATR ReluMode 4 is reserved");
  b = Machine::bundle_of(text);
  b.fpatr->group_n_code = 10;
  mc.reject(b, FaultCode::IllegalInstruction, "B.FPATR GroupNCode 10 is reserved");
  b = Machine::bundle_of(text);
  b.fpatr->row_max_init = true;
  mc.reject(b, kLegality, "RowMaxInit=1 requires RowMaxEn=1");
  b = Machine::bundle_of(text);
  b.fpatr->group_max_en = true;
  mc.reject(b, kLegality, "GroupMaxEn and a non-zero GroupNCode require each other");
  b = Machine::bundle_of(text);
  b.fpatr->group_n_code = 2;
  mc.reject(b, kLegality, "GroupMaxEn and a non-zero GroupNCode require each other");
  b = Machine::bundle_of(text);
  b.fpatr->max_abs_en = true;
  mc.reject(b, kLegality, "MaxAbsEn=1 requires RowMaxEn or GroupMaxEn");
}

TEST_CASE("CUBE preflight: every input type pair of the ordinary and MX forms", "[cube]") {
  const auto same_class = [](DataType a, DataType b) { return type_class(a) == type_class(b); };
  const std::vector<DataType> ordinary = {DataType::FP32, DataType::TF32, DataType::HF32, DataType::FP16, DataType::BF16,
                                          DataType::HiF8, DataType::E4M3, DataType::E5M2, DataType::E3M2, DataType::E2M3,
                                          DataType::E2M1X2, DataType::E1M2X2, DataType::S16, DataType::S8, DataType::S4X2,
                                          DataType::U16, DataType::U8, DataType::U4X2};
  const std::vector<DataType> mx = {DataType::FP16, DataType::BF16, DataType::E4M3,
                                    DataType::E5M2, DataType::E2M1X2, DataType::E1M2X2};
  auto in = [](const std::vector<DataType>& set, DataType t) { return std::find(set.begin(), set.end(), t) != set.end(); };
  for (bool is_mx : {false, true})
    for (DataType a : kAllDataTypes)
      for (DataType b : kAllDataTypes) {
        const std::vector<DataType>& set = is_mx ? mx : ordinary;
        const bool legal = in(set, a) && in(set, b) && (is_mx || same_class(a, b));
        INFO((is_mx ? "MX " : "") << data_type_name(a) << " x " << data_type_name(b));
        Machine mc;
        if (legal) {
          FormSpec f;
          f.op = is_mx ? Operation::TMATMUL_MX : Operation::TMATMUL;
          f.a = a;
          f.b = b;
          f.a_fn = f.b_fn = fill(0);
          const auto d = mc.commit(setup(mc, f));
          CHECK(mc.desc(d[0]).dtype == (is_mx || is_float(a) ? DataType::FP32 : is_signed_integer(a) ? DataType::S32 : DataType::U32));
          continue;
        }
        const std::string op = is_mx ? "TMATMULMX " : "TMATMUL ";
        const std::string rule = !in(set, a) ? std::string("A type ") + data_type_name(a)
                                 : !in(set, b) ? std::string("B type ") + data_type_name(b)
                                               : std::string("are not of one class");
        mc.reject("BSTART." + op + data_type_name(a) + "\nB.DATR dtype=" + data_type_name(b) +
                      "\nB.FPATR\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n",
                  kLegality, rule);
      }
  // B.DATR DataType NONE (code 31) inherits the A type.
  Machine mc;
  const std::string text = base(mc);
  mc.commit(replace(text, "B.FPATR", "B.DATR dtype=none\nB.FPATR"));
  // Reserved codes can only come from a Bundle built by hand.
  Bundle b = Machine::bundle_of(text);
  b.dtype_code = 15;
  mc.reject(b, FaultCode::IllegalInstruction, "BSTART DataType code 15 is reserved");
  b = Machine::bundle_of(text);
  b.datr = DatrFields{};
  b.datr->dtype_code = 21;
  mc.reject(b, FaultCode::IllegalInstruction, "B.DATR DataType code 21 is reserved");
}

TEST_CASE("CUBE preflight: participation and the binding schema", "[cube]") {
  Machine mc;
  const std::string text = base(mc);
  mc.reject("BSTART.TMATMUL FP16\nB.FPATR\nBSTOP\n", kLegality, "TMATMUL has no effective B.IOT or B.IOS binding");
  mc.reject(replace(text, "mask=1111", "mask=1110"), kLegality, "PE mask 1110: every executing CUBE binding must use 1111");
  mc.reject(replace(text, "B.IOT", "B.IOS mask=1111, ->S5<1>\nB.IOT"), kLegality,
            "B.IOS S5 names a destination; CUBE Shared bindings are source-only");
  mc.reject(replace(text, "B.IOT T#1, T#3, mask=1111", "B.IOT T#1, T#3, mask=1111\nB.IOT T#3, mask=1111"), kLegality,
            "TMATMUL expects 2 Local sources (A, B), the B.IOT bindings give 3");
  mc.reject(replace(text, ", last, ->M<1>", ", ->M<1>\nB.IOT mask=1111, last, ->U<1>"), kLegality,
            "TMATMUL expects 1 destinations (D), the B.IOT bindings give 2");
  mc.reject(replace(text, ", last, ->", ", ->"), kLegality, "the B.IOT binding list must be closed by 'last'");
  mc.reject(replace(text, "B.FPATR", "B.FPATR transa=1"), kLegality, "B.FPATR TransA=1 needs a Shared A");
  mc.reject(replace(text, "B.FPATR", "B.FPATR transb=1"), kLegality, "B.FPATR TransB=1 needs a Shared B");
  mc.reject(replace(text, "B.IOT", "B.IOR r1, zero, zero, ->zero\nB.IOT"), kLegality,
            "B.IOR RegSrc0 is not consumed by this block and must be the zero register");
  mc.reject(replace(text, "B.IOT", "B.IOR zero, zero, zero, ->r3\nB.IOT"), kLegality,
            "B.IOR RegDst must be the zero register for CUBE operations");
  mc.commit(replace(text, "B.IOT", "B.IOR zero, zero, zero, ->zero\nB.IOT"));  // an all-zero B.IOR is harmless
  // Masks and SizeCodes the front end guarantees.
  Bundle b = Machine::bundle_of(text);
  b.iot.push_back(b.iot[0]);
  b.iot.back().mask = PeMask(0xE);
  mc.reject(b, kLegality, "B.IOT masks differ within the block");
  b = Machine::bundle_of(text);
  b.ios.push_back(IosBinding{3, 0, PeMask(0x8)});
  mc.reject(b, kLegality, "B.IOS mask 1000 differs from the block's mask");
  b = Machine::bundle_of(text);
  b.iot.back().size_code = 11;
  mc.reject(b, FaultCode::IllegalInstruction, "B.IOT destination SizeCode 11 is reserved");
}

TEST_CASE("CUBE preflight: Shared stream shapes", "[cube]") {
  Machine mc;
  mc.shared(5, DataType::E4M3, 128, 1, 1, 1, fill(0));
  mc.reject("BSTART.TGEMV FP16\nB.FPATR\nB.IOS S5, mask=1111\nB.IOT T#1, mask=1111, last, ->T<1>\nBSTOP\n", kLegality,
            "TGEMV is Local-only");
  // E4M3 x E4M3 MX: the Shared stream is B, SB (2) or A, SA, B, SB (4); one or three is malformed.
  mc.reject("BSTART.TMATMULMX E4M3\nB.FPATR\nB.IOS S5, mask=1111\nB.IOT T#1, T#2, mask=1111, last, ->T<1>\nBSTOP\n",
            kLegality, "1 B.IOS sources: the Shared stream is B, SB or A, SA, B, SB");
}

TEST_CASE("CUBE preflight: B.DATR fields", "[cube]") {
  Machine mc;
  const std::string text = base(mc);
  // A present B.DATR always encodes the B type (an unnamed DataType field would be FP64).
  auto with = [&](const std::string& datr) { return replace(text, "B.FPATR", "B.DATR dtype=FP16, " + datr + "\nB.FPATR"); };
  mc.reject(with("layout=ND2ZN"), kLegality, "B.DATR Layout must be zero for TMATMUL");
  mc.reject(with("cmode=ne"), kLegality, "B.DATR CMode must be zero for TMATMUL");
  mc.reject(with("pad=max"), kLegality, "B.DATR PadValue must be zero for TMATMUL");
  mc.reject(with("canon=1"), kLegality, "B.DATR Canonicalize must be zero for TMATMUL");
  // ADR 0079: RMode and Sat are legal with PreQuantMode 0 (they have nothing to convert there).
  const auto d = mc.commit(with("rmode=rtz, sat=1"));
  CHECK(mc.desc(d[0]).dtype == DataType::FP32);
  // The B.FPATR table: fixed-rounding modes reject RMode, shift modes also Sat.
  mc.reject(replace(with("rmode=rtz"), "B.FPATR", "B.FPATR prequantmode=1"), kLegality,
            "B.DATR RMode must be zero with PreQuantMode F322F16 (fixed rounding)");
  Machine si;
  FormSpec f;
  f.a = f.b = DataType::S8;
  f.prequant = 13;
  f.extra_lines = "B.IOR r5, zero, zero, ->zero\n";
  si.gpr(5, std::uint64_t{2} << 32);
  const std::string shift = setup(si, f);
  si.commit(shift);
  si.reject(replace(shift, "B.FPATR", "B.DATR dtype=S8, sat=1\nB.FPATR"), kLegality,
            "B.DATR Sat must be zero with PreQuantMode SHIFTS322S16 (shift mode)");
  si.reject(replace(shift, "B.FPATR", "B.DATR dtype=S8, rmode=rne\nB.FPATR"), kLegality,
            "B.DATR RMode must be zero with PreQuantMode SHIFTS322S16 (shift mode)");
}

TEST_CASE("CUBE preflight: dimensions", "[cube]") {
  Machine mc;
  const std::string text = base(mc);
  mc.reject(replace(text, "B.DIM zero, 2, ->LB0", "B.DIM zero, 0, ->LB0"), kLegality, "LB0 (M) resolves to 0");
  mc.reject(replace(text, "B.DIM zero, 2, ->LB1", "B.DIM zero, 0, ->LB1"), kLegality, "LB1 (N) resolves to 0");
  mc.reject(replace(text, "B.DIM zero, 2, ->LB2", "B.DIM zero, 0, ->LB2"), kLegality, "LB2 (K) resolves to 0");
  mc.reject(replace(text, "B.DIM zero, 2, ->LB1", "B.DIM zero, 6, ->LB1"), kLegality, "LB1 (N) = 6 is not a power of two");
  // The value comes from GPR + immediate on every PE; the PEs must agree.
  mc.m.state().set_gpr(2, 7, 1);
  mc.reject(replace(text, "B.DIM zero, 2, ->LB0", "B.DIM r7, 2, ->LB0"), kLegality, "LB0 resolves to different values");
  for (int pe = 0; pe < kPeCount; ++pe) mc.m.state().set_gpr(pe, 7, 1);
  mc.commit(replace(text, "B.DIM zero, 2, ->LB0", "B.DIM r7, 1, ->LB0"));
  Machine gemv;
  FormSpec f;
  f.op = Operation::TGEMV;
  const std::string g = setup(gemv, f);
  gemv.reject(replace(g, "B.FPATR\n", "B.FPATR\nB.DIM zero, 2, ->LB0\n"), kLegality, "TGEMV has M = 1, but LB0 resolves to 2");
  gemv.commit(replace(g, "B.FPATR\n", "B.FPATR\nB.DIM zero, 1, ->LB0\n"));  // an explicit LB0 = 1 is legal
}

TEST_CASE("CUBE preflight: scalar parameter words from each PE's GPRs", "[cube]") {
  Machine mc;
  FormSpec f;
  f.prequant = 24;  // QF322B8_PRE: scalar FP19 scale + S9 offset
  f.fpatr_fields = "relumode=2";
  f.extra_lines = "B.IOR r5, r6, zero, ->zero\n";
  const std::string text = setup(mc, f);
  const std::uint64_t one = std::uint64_t{127} << 10 << 13;
  mc.gpr(5, one);
  mc.gpr(6, std::uint64_t{126} << 10);  // alpha 0.5
  mc.commit(text);
  mc.m.state().set_gpr(2, 5, one | 1);
  mc.reject(text, kLegality, "B.IOR QuantParam 0x3f800001 on PE2 is not a legal QF322B8_PRE parameter word");
  mc.gpr(5, one);
  mc.m.state().set_gpr(3, 6, (std::uint64_t{126} << 10) | (1U << 18));
  mc.reject(text, kLegality, "B.IOR LReLU/PReLU alpha 0x5f800 on PE3 is not an FP19 +0 or positive normal");
  // An omitted B.IOR reads the zero register: no scale, so an illegal QuantParam word.
  mc.reject(replace(text, "B.IOR r5, r6, zero, ->zero\n", ""), kLegality, "B.IOR QuantParam 0x0 on PE0");
  mc.reject(replace(text, "B.IOR r5, r6, zero, ->zero", "B.IOR r5, r6, r7, ->zero"), kLegality,
            "B.IOR RegSrc2 is not consumed by this block");
}

TEST_CASE("CUBE preflight: Shared readiness and read schema", "[cube]") {
  FormSpec f;
  f.shared_b = true;
  f.m = f.n = f.k = 2;
  Machine ok;
  const std::string text = setup(ok, f);
  ok.commit(text);
  auto variant = [&](const std::function<void(Machine&)>& spoil, const std::string& rule) {
    Machine mc;
    setup(mc, f);
    spoil(mc);
    mc.reject(text, kLegality, rule);
  };
  variant([](Machine& mc) { mc.m.state().shared(3).allocated = false; }, "Shared B S3 is not allocated");
  variant([](Machine& mc) { mc.m.state().shared(3).allocation_mask = PeMask(0xC); },
          "Shared B S3 is allocated for PEs 1100, not 1111");
  variant([](Machine& mc) { mc.m.state().shared(3).initialized_mask = PeMask(0xE); },
          "Shared B S3 has uninitialised quarters (initialised 1110)");
  variant([](Machine& mc) { mc.m.state().shared(3).published = false; }, "Shared B S3 is not published");
  variant([](Machine& mc) { mc.m.state().shared(3).defined.set(1, false); }, "Shared B S3 has an undefined element");
  variant([](Machine& mc) { mc.m.state().shared(3).desc.layout = Layout::ColumnMajor; }, "Shared B S3 must be RowMajor");
  variant([](Machine& mc) { mc.m.state().shared(3).desc.dtype = DataType::BF16; }, "Shared B S3 is BF16, expected FP16");
  variant([](Machine& mc) { mc.shared(3, DataType::FP16, 128, 4, 2, 2, fill(0)); },
          "Shared B S3 has 4 physical columns; the stored 2x2 operand needs 2");
  variant([](Machine& mc) { mc.shared(3, DataType::FP16, 128, 2, 1, 2, fill(0)); },
          "Shared B S3 valid region 1x2 does not contain the stored 2x2 operand");
  // Both-sides form: the Shared A is checked first, transposed storage included.
  FormSpec both = f;
  both.shared_a = true;
  both.trans_a = true;
  both.m = 4;
  Machine mc;
  const std::string t2 = setup(mc, both);
  mc.commit(t2);
  mc.shared(1, DataType::FP16, 128, 2, 2, 2, fill(0));  // stored M x K instead of K x M
  mc.reject(t2, kLegality, "Shared A S1 has 2 physical columns; the stored 2x4 operand needs 4");
  // M above CUBE_M32 with no Local A or C to take the layout from.
  Machine big;
  FormSpec m64 = both;
  m64.m = 64;
  m64.d_size_code = 1;
  big.reject(setup(big, m64), kLegality, "M = 64 exceeds the 32 rows of CUBE_M32");
}

TEST_CASE("CUBE preflight: post-processing sources", "[cube]") {
  {
    Machine mc;
    FormSpec f;
    f.a = f.b = DataType::S8;
    f.prequant = 1;  // F322F16 wants an FP32 accumulator
    mc.reject(setup(mc, f), kLegality, "PreQuantMode F322F16 does not accept the S32 accumulator of TMATMUL");
  }
  FormSpec f;
  f.n = 2;
  f.fpatr_fields = "rowmaxen=1, rowmaxinit=1";
  f.extra_sources = {"U#5"};
  f.extra_dests = {"U<1>"};
  auto row_max_in = [&](const TileDescriptor& d, const std::string& rule) {
    Machine mc;
    const std::string text = setup(mc, f);
    mc.install("U#5", d, fill(0));
    if (rule.empty()) mc.commit(text);
    else mc.reject(text, kLegality, rule);
  };
  row_max_in(ordinary_desc(DataType::FP32, 128, 1, 1, 1), "");
  row_max_in(ordinary_desc(DataType::FP32, 128, 1, 1, 1, Location::Matrix), "RowMaxIn U#5 must be in location Any, not Matrix");
  row_max_in(ordinary_desc(DataType::S32, 128, 1, 1, 1), "RowMaxIn U#5 is S32, expected FP32");
  row_max_in(ordinary_desc(DataType::FP32, 128, 2, 1, 2), "RowMaxIn U#5 has valid shape 1x2, expected 1x1");
  row_max_in(ordinary_desc(DataType::FP32, 128, 1, 1, 1, Location::Any, Layout::ColumnMajor), "RowMaxIn U#5 must be RowMajor");

  // Vector QuantParam (VQF322F16_PRE, 33) and vector PReLU tiles: 1 x N U64, legal words only.
  FormSpec v;
  v.n = 2;
  v.prequant = 33;
  v.fpatr_fields = "relumode=3";
  v.extra_sources = {"U#6", "U#7"};
  const std::uint64_t scale = std::uint64_t{127} << 10 << 13, alpha = std::uint64_t{126} << 10;
  auto vectors = [&](std::uint64_t q1, std::uint64_t r1, DataType qt, const std::string& rule) {
    Machine mc;
    const std::string text = setup(mc, v);
    mc.ordinary("U#6", qt, 128, 2, 1, 2, values({scale, q1}, 2));
    mc.ordinary("U#7", DataType::U64, 128, 2, 1, 2, values({alpha, r1}, 2));
    if (rule.empty()) mc.commit(text);
    else mc.reject(text, kLegality, rule);
  };
  vectors(scale, alpha, DataType::U64, "");
  vectors(scale, alpha, DataType::U32, "QuantParam vector U#6 is U32, expected U64");
  vectors(scale | 1, alpha, DataType::U64, "QuantParam vector U#6 column 1 on PE0 holds an illegal parameter word 0x3f800001");
  vectors(scale, std::uint64_t{1} << 19, DataType::U64, "PReLU vector U#7 column 1 on PE0 holds an illegal parameter word 0x80000");
}

TEST_CASE("CUBE preflight: value checks are skipped and listed without payload access", "[cube]") {
  Machine mc;
  FormSpec v;
  v.a = v.b = DataType::TF32;
  v.prequant = 38;  // VQF322F32_PRE
  v.extra_sources = {"U#6"};
  const std::string text = setup(mc, v);
  mc.ordinary("U#6", DataType::U64, 128, 1, 1, 1, fill(0));  // an illegal word, unseen in timing-only mode
  ExecPlan plan;
  REQUIRE_FALSE(cube_preflight(Machine::bundle_of(text), mc.m.state(), nullptr, plan));
  CHECK(plan.skipped_checks == std::vector<std::string>{"parameter words of QuantParam vector U#6",
                                                         "encoding validity of A T#1", "encoding validity of B T#3"});
  mc.reject(text, kLegality, "QuantParam vector U#6 column 0 on PE0 holds an illegal parameter word 0x0");
}

TEST_CASE("CUBE preflight: only D, whose descriptor it validates, is marked checked for allocation", "[cube]") {
  Machine mc;
  FormSpec f;
  f.m = f.n = f.k = 2;
  f.fpatr_fields = "rowmaxen=1";
  f.extra_dests = {"N<1>"};
  const std::string text = setup(mc, f);
  ExecPlan plan;
  REQUIRE_FALSE(cube_preflight(Machine::bundle_of(text), mc.m.state(), nullptr, plan));
  REQUIRE(plan.dests.size() == 2);
  CHECK(plan.dests[0].desc_checked);
  CHECK_FALSE(descriptor_problem(plan.dests[0].desc));
  CHECK_FALSE(plan.dests[1].desc_checked);  // RowMaxOut: its descriptor is left to allocation
}

TEST_CASE("CUBE preflight: Local matrix operands", "[cube]") {
  FormSpec acc;
  acc.op = Operation::TMATMUL_ACC;
  acc.m = acc.n = acc.k = 2;
  auto spoil = [](const FormSpec& f, const std::string& reg, const TileDescriptor& d, const std::string& rule) {
    Machine mc;
    const std::string text = setup(mc, f);
    mc.install(reg, d, fill(0));
    mc.reject(text, kLegality, rule);
  };
  const Layout m16 = Layout::CubeM16, n8 = Layout::CubeN8;
  // C.
  spoil(acc, "U#1", ordinary_desc(DataType::FP32, 128, 2, 2, 2, Location::Matrix), "C U#1 must use CUBE_M16 or CUBE_M32, not RowMajor");
  spoil(acc, "U#1", cube_desc(Layout::CubeM32, DataType::FP32, 2, 2, 256), "C U#1 is CUBE_M32 but A is CUBE_M16");
  TileDescriptor vec = cube_desc(m16, DataType::FP32, 2, 2, 256);
  vec.location = Location::Vector;
  spoil(acc, "U#1", vec, "C U#1 must be in location Matrix, not Vector");
  spoil(acc, "U#1", cube_desc(m16, DataType::FP32, 2, 1, 256), "C U#1 has valid shape 2x1, expected 2x2");
  spoil(acc, "U#1", cube_desc(m16, DataType::S32, 2, 2, 256), "C U#1 is S32, expected FP32");
  spoil(acc, "U#1", cube_desc(m16, DataType::FP32, 2, 2, 512), "C U#1 capacity 512 B differs from D's 128 B");
  {
    // With a PreQuantMode D's type changes and the capacity rule does not apply.
    FormSpec cvt = acc;
    cvt.prequant = 1;
    Machine mc;
    const std::string text = setup(mc, cvt);
    mc.install("U#1", cube_desc(m16, DataType::FP32, 2, 2, 512), fill(0));
    const auto d = mc.commit(text);
    CHECK(mc.desc(d[0]).dtype == DataType::FP16);
  }
  // A.
  FormSpec plain = acc;
  plain.op = Operation::TMATMUL;
  spoil(plain, "T#1", ordinary_desc(DataType::FP16, 128, 2, 2, 2, Location::Matrix), "A T#1 must use CUBE_M16 or CUBE_M32, not RowMajor");
  FormSpec m32 = plain;
  m32.m = 32;
  spoil(m32, "T#1", cube_desc(m16, DataType::FP16, 16, 2, 128), "A T#1 is CUBE_M16, which holds 16 rows; M = 32");
  {
    // CELLs beyond the capacity cannot even be stored: the install is refused, before any change
    // (a descriptor changed in place after its install is the preflight's, below).
    TileDescriptor bad_cells = cube_desc(m16, DataType::FP16, 2, 2, 128);
    bad_cells.capacity_bytes = 64;
    Machine mc;
    setup(mc, plain);
    const TileDescriptor before = mc.m.state().local(0).desc;
    REQUIRE_THROWS_WITH(mc.install("T#1", bad_cells, fill(0)), Catch::Contains("elements need more than the capacity of 64 B"));
    CHECK(mc.m.state().local(0).desc == before);
  }
  spoil(plain, "T#1", cube_desc(m16, DataType::FP16, 2, 1, 128), "A T#1 has valid shape 2x1, expected 2x2");
  spoil(plain, "T#1", cube_desc(m16, DataType::BF16, 2, 2, 128), "A T#1 is BF16, expected FP16");
  // B.
  spoil(plain, "T#3", cube_desc(m16, DataType::FP16, 2, 2, 128), "B T#3 must use CUBE_N8, not CUBE_M16");
  TileDescriptor b_vec = cube_desc(n8, DataType::FP16, 2, 2, 128);
  b_vec.location = Location::Any;
  spoil(plain, "T#3", b_vec, "B T#3 must be in location Matrix, not Any");
  spoil(plain, "T#3", cube_desc(n8, DataType::FP16, 2, 4, 128), "B T#3 has valid shape 2x4, expected 2x2");
  spoil(plain, "T#3", cube_desc(n8, DataType::E4M3, 2, 2, 128), "B T#3 is E4M3, expected FP16");
  // Scales (E4M3 MX): RowMajor E8M0 of the block shape, power-of-two physical extents.
  FormSpec mx = plain;
  mx.op = Operation::TMATMUL_MX;
  mx.a = mx.b = DataType::E4M3;
  spoil(mx, "T#2", ordinary_desc(DataType::E8M0, 128, 1, 2, 1, Location::Any, Layout::ColumnMajor), "SA T#2 must be RowMajor");
  spoil(mx, "T#2", ordinary_desc(DataType::U8, 128, 1, 2, 1), "SA T#2 is U8, expected E8M0");
  spoil(mx, "T#2", ordinary_desc(DataType::E8M0, 128, 2, 2, 2), "SA T#2 has valid shape 2x2, expected 2x1");
  spoil(mx, "T#2", ordinary_desc(DataType::E8M0, 384, 8, 2, 1), "SA T#2 physical shape 48x8 is not a power of two");
  spoil(mx, "T#4", ordinary_desc(DataType::E8M0, 128, 1, 1, 1), "SB T#4 has valid shape 1x1, expected 1x2");
  // Bias (ADR 0079 Decision 052): exactly 1 x N, row-major, of the accumulator type. The unspoiled
  // form commits.
  FormSpec bias = plain;
  bias.op = Operation::TMATMUL_BIAS;
  {
    Machine mc;
    mc.commit(setup(mc, bias));
  }
  spoil(bias, "U#2", ordinary_desc(DataType::FP32, 128, 2, 1, 2, Location::Any, Layout::ColumnMajor),
        "Bias U#2 must be RowMajor, not ColumnMajor");
  spoil(bias, "U#2", ordinary_desc(DataType::FP32, 128, 2, 2, 2), "Bias U#2 has valid shape 2x2, expected 1x2");
  spoil(bias, "U#2", ordinary_desc(DataType::FP32, 128, 4, 1, 4), "Bias U#2 has valid shape 1x4, expected 1x2");
  spoil(bias, "U#2", ordinary_desc(DataType::FP16, 128, 2, 1, 2), "Bias U#2 is FP16, expected FP32");
  FormSpec int_bias = bias;
  int_bias.a = int_bias.b = DataType::S8;
  spoil(int_bias, "U#2", ordinary_desc(DataType::U32, 128, 2, 1, 2), "Bias U#2 is U32, expected S32");
  // Allocation and fragments of every source.
  {
    Machine mc;
    const std::string text = setup(mc, plain);
    mc.m.state().local(reg_index("T#3")).allocated = false;
    mc.reject(text, kLegality, "B T#3 is not allocated");
  }
  {
    Machine mc;
    const std::string text = setup(mc, plain);
    TileDescriptor d = cube_desc(m16, DataType::FP16, 2, 2, 128, PeMask(0xE));
    mc.install("T#1", d, fill(0));
    mc.reject(text, kLegality, "A T#1 holds no payload fragment on PE3");
  }
  {
    Machine mc;  // the first PE without a fragment is named
    const std::string text = setup(mc, plain);
    TileDescriptor d = cube_desc(m16, DataType::FP16, 2, 2, 128, PeMask(0x9));
    mc.install("T#1", d, fill(0));
    mc.reject(text, kLegality, "A T#1 holds no payload fragment on PE1");
  }
  {
    Machine mc;
    const std::string text = setup(mc, plain);
    const TileDescriptor d = cube_desc(m16, DataType::FP16, 2, 2, 128);
    std::array<FragmentData, kPeCount> data;
    data.fill(fragment(d, fill(0)));
    data[3][d.cols + 1] = std::nullopt;  // element [1, 1] on PE3
    mc.m.load_local(reg_index("T#1"), d, data);
    mc.reject(text, kLegality, "A T#1 has an undefined element in its valid region on PE3");
  }
}

TEST_CASE("CUBE preflight: a source descriptor is checked again unless it is the one installed legal", "[cube]") {
  FormSpec acc;
  acc.op = Operation::TMATMUL_ACC;
  acc.m = acc.n = acc.k = 2;
  // Installed legal, then changed in place: no longer the descriptor installed, so it is checked.
  {
    Machine mc;
    const std::string text = setup(mc, acc);
    CHECK(mc.m.state().local(0).installed_legal(mc.m.state().local(0).desc));
    mc.m.state().local(0).desc.capacity_bytes = 64;  // T#1 (A)
    mc.reject(text, kLegality, "A T#1 descriptor: CELL bytes exceed the capacity");
  }
  // Installed illegal (a storage shape the valid shape does not give, within the capacity):
  // nothing is remembered as legal.
  {
    Machine mc;
    const std::string text = setup(mc, acc);
    TileDescriptor bad_shape = mc.m.state().local(0).desc;
    bad_shape.rows /= 2;
    mc.install("T#1", bad_shape, fill(0));
    CHECK_FALSE(mc.m.state().local(0).installed_legal(bad_shape));
    mc.reject(text, kLegality, "A T#1 descriptor: CELL storage shape does not match the valid shape");
  }
  // A result is placed as legal: C of the next accumulation passes on that alone.
  Machine mc;
  const std::string text = setup(mc, acc);
  const auto d = mc.commit(text);
  CHECK(mc.m.state().local(d[0]).installed_legal(mc.desc(d[0])));
}

TEST_CASE("CUBE preflight: invalid input encodings", "[cube]") {
  {
    Machine mc;
    FormSpec f;
    f.a = f.b = DataType::TF32;
    f.a_fn = fill(0x3F800001);  // a discarded TF32 fraction bit set
    f.b_fn = fill(0);
    mc.reject(setup(mc, f), kLegality, "A T#1 element [0,0] on PE0 is an invalid TF32 encoding 0x3f800001");
  }
  Machine mc;
  FormSpec f;
  f.a = f.b = DataType::E3M2;
  f.shared_b = true;
  f.a_fn = fill(0);
  f.b_fn = fill(0x41);  // carrier bits 7:6 set
  mc.reject(setup(mc, f), kLegality, "B S3 element [0,0] is an invalid E3M2 encoding 0x41");
}

TEST_CASE("CUBE preflight: destinations", "[cube]") {
  {
    Machine mc;
    FormSpec f;
    f.m = 16;
    f.n = 8;
    f.d_size_code = 2;  // 16x8 FP32 in CUBE_M16 needs 4 CELLs (16x2 each) = 512 B
    mc.reject(setup(mc, f), FaultCode::TileAllocation,
              "D (16x8 FP32, 256 B): CELL bytes exceed the capacity (needs SizeCode 3, 512 B)");
  }
  {
    // GroupMaxOut of 64 FP32 columns (N = 512, GroupN 8) in 128 B.
    Machine mc;
    FormSpec f;
    f.n = 512;
    f.fpatr_fields = "groupncode=1, groupmaxen=1";
    f.extra_dests = {"U<1>"};
    mc.reject(setup(mc, f), FaultCode::TileAllocation,
              "GroupMaxOut: TSize 128 B cannot hold 1x64 FP32 with 64 physical columns (needs SizeCode 2, 256 B)");
  }
  {
    Machine mc;
    FormSpec f;
    f.n = 512;
    f.fpatr_fields = "groupncode=4, groupmaxen=1";  // 48 columns: ceil(512 / 48) = 11 is no power of two
    f.extra_dests = {"U<4>"};
    mc.reject(setup(mc, f), FaultCode::TileAllocation, "GroupMaxOut: TSize 1024 B cannot hold 1x11 FP32 with 11 physical columns");
    CHECK(mc.run1(setup(mc, f)).fault->rule.find("needs SizeCode") == std::string::npos);  // no size would do
  }
  {
    // Allocation itself: a full hand (the asl policy never releases).
    Machine mc;
    const std::string text = base(mc);
    for (int i = 1; i <= 16; ++i) mc.ordinary("M#" + std::to_string(i), DataType::U8, 128, 8, 1, 1, fill(0));
    mc.reject(text, FaultCode::TileAllocation, "no free register in hand M");
  }
  {
    // TILE_CAPACITY: four 64 KiB tiles use up a PE's 256 KiB.
    Machine mc;
    const std::string text = base(mc);
    for (int i = 13; i <= 16; ++i) mc.ordinary("U#" + std::to_string(i), DataType::U8, 65536, 8, 1, 1, fill(0));
    mc.reject(text, FaultCode::TileAllocation, "tile capacity exhausted");
  }
}

}  // namespace
}  // namespace ptosim::model::cube_test
