// SPDX-License-Identifier: BSD-3-Clause
#include "model/cube/cube_preflight.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "model/common/text.h"
#include "model/cube/cube_postprocess.h"
#include "model/numeric/scalar_ops.h"
#include "model/plan/preflight_support.h"
#include "model/state/element_access.h"

namespace ptosim::model {

namespace {

Fault legality(std::string rule) { return fault(FaultCode::TileLegality, std::move(rule)); }

constexpr bool is_pow2(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::string shape(std::uint32_t rows, std::uint32_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

/// TileOrdinaryMatrixInputTypeSupported (asl/tile/model/legality/matrix-shape.asl).
bool ordinary_input_type(DataType t) {
  switch (t) {
    case DataType::FP32: case DataType::TF32: case DataType::HF32: case DataType::FP16: case DataType::BF16:
    case DataType::HiF8: case DataType::E4M3: case DataType::E5M2: case DataType::E3M2: case DataType::E2M3:
    case DataType::E2M1X2: case DataType::E1M2X2: case DataType::S16: case DataType::S8: case DataType::S4X2:
    case DataType::U16: case DataType::U8: case DataType::U4X2:
      return true;
    default:
      return false;
  }
}

/// TileMXInputTypeSupported (asl/tile/model/legality/matrix-functions.asl).
bool mx_input_type(DataType t) {
  return t == DataType::FP16 || t == DataType::BF16 || t == DataType::E4M3 || t == DataType::E5M2 ||
         t == DataType::E2M1X2 || t == DataType::E1M2X2;
}

/// TileMXInputTypeNeedsScale.
bool mx_needs_scale(DataType t) { return t != DataType::FP16 && t != DataType::BF16; }

/// TileMatrixAccumulatorDataType: the private result class of an input class.
DataType accumulator_of(DataType t) {
  return is_float(t) ? DataType::FP32 : is_signed_integer(t) ? DataType::S32 : DataType::U32;
}

const char* class_name(DataType t) { return is_float(t) ? "floating" : is_signed_integer(t) ? "signed" : "unsigned"; }

/// Encodings a consumer must reject (TF32/HF32 low fraction bits, E3M2/E2M3 carrier bits 7:6).
bool encoding_constrained(DataType t) {
  return t == DataType::TF32 || t == DataType::HF32 || t == DataType::E3M2 || t == DataType::E2M3;
}

/// One step of the CUBE dispatch contract at a time (asl/block/model/dispatch/cube-tmatmul.asl,
/// ExecuteBundleTMATMULOperation), each returning the first fault it finds.
class CubePreflight {
 public:
  CubePreflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan)
      : m_b(b), m_s(s), m_values(values), m_plan(plan) {}

  Status run(std::optional<CubeBundleFacts>* memo) {
    // Direct calls, not a table of steps: each step is called once, so the compiler can inline it.
    if (memo && *memo) {
      m_facts = **memo;
    } else {
      if (Status f = check_fpatr()) return f;
      if (Status f = resolve_types()) return f;
      if (Status f = check_bindings()) return f;
      if (Status f = check_datr()) return f;
      if (memo) *memo = m_facts;
    }
    if (Status f = resolve_dimensions()) return f;
    if (Status f = read_scalars()) return f;
    if (Status f = check_shared()) return f;
    if (Status f = check_postprocess_sources()) return f;
    if (Status f = check_matrix_sources()) return f;
    if (Status f = check_encodings()) return f;
    if (Status f = plan_destinations()) return f;
    m_plan.args = m_args;
    return std::nullopt;
  }

 private:
  // ---------------------------------------------------------------------------------------------
  // B.FPATR: exactly one (ADR 0064), assigned codes, consistent enables.
  Status check_fpatr() {
    if (!m_b.fpatr || m_b.fpatr_count == 0)
      return fault(FaultCode::BundleControl, m_b.mnemonic + " has no B.FPATR: every CUBE block carries exactly one");
    if (m_b.fpatr_count > 1)
      return fault(FaultCode::BundleControl, m_b.mnemonic + " has " + std::to_string(m_b.fpatr_count) +
                                                 " B.FPATR: every CUBE block carries exactly one");
    const FpatrFields& f = *m_b.fpatr;
    if (!cube::prequant_mode_assigned(f.prequant_mode))
      return fault(FaultCode::IllegalInstruction, "B.FPATR PreQuantMode " + std::to_string(f.prequant_mode) + " is reserved");
    if (f.relu_mode > 3)
      return fault(FaultCode::IllegalInstruction, "B.FPATR ReluMode " + std::to_string(f.relu_mode) + " is reserved");
    if (f.group_n_code > 9)
      return fault(FaultCode::IllegalInstruction, "B.FPATR GroupNCode " + std::to_string(f.group_n_code) + " is reserved");
    // BundleFPATRFieldsLegal (the BlockBuilder checks the same when B.FPATR is decoded).
    if (f.row_max_init && !f.row_max_en) return legality("B.FPATR RowMaxInit=1 requires RowMaxEn=1");
    if (f.group_max_en != (f.group_n_code != 0))
      return legality("B.FPATR GroupMaxEn and a non-zero GroupNCode require each other");
    if (f.max_abs_en && !f.row_max_en && !f.group_max_en) return legality("B.FPATR MaxAbsEn=1 requires RowMaxEn or GroupMaxEn");
    CubeFpatr& p = m_args.fpatr;
    p.prequant_mode = f.prequant_mode;
    p.relu_mode = f.relu_mode;
    p.group_n = cube::group_n_columns(f.group_n_code);
    p.row_max = f.row_max_en;
    p.group_max = f.group_max_en;
    p.row_max_init = f.row_max_init;
    p.max_abs = f.max_abs_en;
    m_args.trans_a = f.trans_a;
    m_args.trans_b = f.trans_b;
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // Input types (ADR 0079 Decisions 050 and 054): BSTART selects A; a present B.DATR DataType
  // selects B (explicit 0 is FP64, so absence and zero differ); DTYPE_NONE inherits A.
  Status resolve_types() {
    const Operation op = *m_b.op;
    m_args.mx = op == Operation::TMATMUL_MX || op == Operation::TMATMUL_MX_BIAS || op == Operation::TMATMUL_MX_ACC ||
                op == Operation::TGEMV_MX || op == Operation::TGEMV_MX_BIAS || op == Operation::TGEMV_MX_ACC;
    m_args.bias = op == Operation::TMATMUL_BIAS || op == Operation::TMATMUL_MX_BIAS || op == Operation::TGEMV_BIAS ||
                  op == Operation::TGEMV_MX_BIAS;
    m_args.accumulate = op == Operation::TMATMUL_ACC || op == Operation::TMATMUL_MX_ACC || op == Operation::TGEMV_ACC ||
                        op == Operation::TGEMV_MX_ACC;
    m_facts.gemv = op >= Operation::TGEMV;
    const auto a = data_type_from_code(m_b.dtype_code);
    if (!a) return fault(FaultCode::IllegalInstruction, "BSTART DataType code " + std::to_string(m_b.dtype_code) + " is reserved");
    std::optional<DataType> b = a;
    if (m_b.datr && m_b.datr->dtype_code != kDataTypeNoneCode) {
      b = data_type_from_code(m_b.datr->dtype_code);
      if (!b)
        return fault(FaultCode::IllegalInstruction,
                     "B.DATR DataType code " + std::to_string(m_b.datr->dtype_code) + " is reserved");
    }
    const char* an = data_type_name(*a);
    const char* bn = data_type_name(*b);
    if (m_args.mx) {
      if (!mx_input_type(*a)) return legality(std::string("A type ") + an + " is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2)");
      if (!mx_input_type(*b)) return legality(std::string("B type ") + bn + " is not an MX input type (FP16, BF16, E4M3, E5M2, E2M1X2, E1M2X2)");
      m_args.acc_dtype = DataType::FP32;
    } else {
      if (!ordinary_input_type(*a)) return legality(std::string("A type ") + an + " is not a " + m_b.mnemonic + " input type");
      if (!ordinary_input_type(*b)) return legality(std::string("B type ") + bn + " is not a " + m_b.mnemonic + " input type");
      if (type_class(*a) != type_class(*b))
        return legality(std::string("A type ") + an + " (" + class_name(*a) + ") and B type " + bn + " (" + class_name(*b) +
                        ") are not of one class");
      m_args.acc_dtype = accumulator_of(*a);
    }
    m_args.a_dtype = *a;
    m_args.b_dtype = *b;
    m_facts.left_scaled = m_args.mx && mx_needs_scale(*a);
    m_facts.right_scaled = m_args.mx && mx_needs_scale(*b);
    m_args.out_dtype = cube::mode_output_type(m_args.fpatr.prequant_mode, m_args.acc_dtype);
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // Participation and the dynamic binding schema (BundleMatrixDynamicBindingsComplete).
  Status check_bindings() {
    if (m_b.iot.empty() && m_b.ios.empty()) return legality(m_b.mnemonic + " has no effective B.IOT or B.IOS binding");
    m_facts.mask = m_b.mask();
    for (const IotBinding& t : m_b.iot)
      if (t.mask != m_facts.mask) return legality("B.IOT masks differ within the block");
    for (const IosBinding& t : m_b.ios)
      if (t.mask != m_facts.mask) return legality("B.IOS mask " + t.mask.to_string() + " differs from the block's mask");
    // ADR 0079 Decision 051: every executing binding uses PE_MASK=1111.
    if (m_facts.mask != PeMask::all())
      return legality("PE mask " + m_facts.mask.to_string() + ": every executing CUBE binding must use 1111");

    for (const IosBinding& t : m_b.ios)
      if (t.size_code != 0)
        return legality("B.IOS " + TileRef::shared(t.shared_id).name() + " names a destination; CUBE Shared bindings are source-only");
    const unsigned shared = static_cast<unsigned>(m_b.ios.size());
    if (m_facts.gemv && shared != 0) return legality(m_b.mnemonic + " is Local-only: no B.IOS binding is allowed");
    // TileMatrixSharedSourceCountLegal: the right group (B [, SB]) or both groups.
    const unsigned left_group = m_facts.left_scaled ? 2 : 1, right_group = m_facts.right_scaled ? 2 : 1;
    if (shared != 0 && shared != right_group && shared != left_group + right_group)
      return legality(std::to_string(shared) + " B.IOS sources: the Shared stream is B" +
                      (m_facts.right_scaled ? ", SB" : "") + " or A" + (m_facts.left_scaled ? ", SA" : "") + ", B" +
                      (m_facts.right_scaled ? ", SB" : ""));
    m_facts.right_shared = shared != 0;
    m_facts.left_shared = shared == left_group + right_group;
    if (m_args.trans_a && !m_facts.left_shared) return legality("B.FPATR TransA=1 needs a Shared A");
    if (m_args.trans_b && !m_facts.right_shared) return legality("B.FPATR TransB=1 needs a Shared B");

    for (const IotBinding& t : m_b.iot) {
      for (unsigned i = 0; i < t.source_count; ++i) m_facts.local.push_back(t.sources[i]);
      if (!t.has_destination) continue;
      if (t.size_code < 1 || t.size_code > 10)
        return fault(FaultCode::IllegalInstruction, "B.IOT destination SizeCode " + std::to_string(t.size_code) + " is reserved");
      m_facts.dests.push_back(static_cast<std::uint8_t>(&t - m_b.iot.begin()));
    }
    // TileMatrixLocalMathematicalSourceCount plus BundleMatrixPostProcessSourceCount.
    const CubeFpatr& f = m_args.fpatr;
    static constexpr const char* kRoles[] = {"C",  "A",    "SA",       "B",
                                             "SB", "Bias", "RowMaxIn", "QuantParam vector",
                                             "PReLU vector"};
    const bool present[std::size(kRoles)] = {m_args.accumulate,
                                             !m_facts.left_shared,
                                             !m_facts.left_shared && m_facts.left_scaled,
                                             !m_facts.right_shared,
                                             !m_facts.right_shared && m_facts.right_scaled,
                                             m_args.bias,
                                             f.row_max && f.row_max_init,
                                             cube::mode_uses_vector_param(f.prequant_mode),
                                             f.relu_mode == 3};
    const auto expected = static_cast<unsigned>(std::count(std::begin(present), std::end(present), true));
    if (m_facts.local.size() != expected) {
      std::string names;  // the fault text only
      for (std::size_t i = 0; i < std::size(kRoles); ++i)
        if (present[i]) names += (names.empty() ? "" : ", ") + std::string(kRoles[i]);
      return legality(m_b.mnemonic + " expects " + std::to_string(expected) + " Local sources (" + names +
                      "), the B.IOT bindings give " + std::to_string(m_facts.local.size()));
    }
    const unsigned dests = 1U + (f.row_max ? 1U : 0U) + (f.group_max ? 1U : 0U);
    if (m_facts.dests.size() != dests)
      return legality(m_b.mnemonic + " expects " + std::to_string(dests) + " destinations (D" +
                      (f.row_max ? ", RowMaxOut" : "") + (f.group_max ? ", GroupMaxOut" : "") +
                      "), the B.IOT bindings give " + std::to_string(m_facts.dests.size()));
    if (!m_b.terminated) return legality("the B.IOT binding list must be closed by 'last'");

    // BundleOperationScalarBindingSchemaLegal: the dense B.IOR slots are QuantParam (scalar modes),
    // then the LReLU/PReLU alpha (ReluMode 2); every other field is the zero register.
    m_facts.scalar_slots = (cube::mode_uses_scalar_param(f.prequant_mode) ? 1U : 0U) + (f.relu_mode == 2 ? 1U : 0U);
    if (m_b.ior) {
      for (unsigned i = m_facts.scalar_slots; i < 3; ++i)
        if (m_b.ior->src[i] != 0)
          return legality("B.IOR RegSrc" + std::to_string(i) + " is not consumed by this block and must be the zero register");
      if (m_b.ior->dst != 0) return legality("B.IOR RegDst must be the zero register for CUBE operations");
    }
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // B.DATR (BundleTMATMULDataAttributesLegal) and the RMode/Sat rule of the selected PreQuantMode.
  Status check_datr() {
    const unsigned mode = m_args.fpatr.prequant_mode;
    unsigned rmode = 0;
    bool sat = false;
    if (m_b.datr) {
      const DatrFields& d = *m_b.datr;
      if (d.layout != 0) return legality("B.DATR Layout must be zero for " + m_b.mnemonic);
      if (d.cmode != 0) return legality("B.DATR CMode must be zero for " + m_b.mnemonic);
      if (d.pad_or_byte_id != 0) return legality("B.DATR PadValue must be zero for " + m_b.mnemonic);
      if (d.canonicalize) return legality("B.DATR Canonicalize must be zero for " + m_b.mnemonic);
      rmode = d.rmode;
      sat = d.sat;
    }
    if (!cube::datr_controls_legal(mode, rmode, sat))
      return legality(std::string("B.DATR ") + (rmode != 0 ? "RMode" : "Sat") + " must be zero with PreQuantMode " +
                      cube::prequant_mode_name(mode) + (cube::mode_is_shift(mode) ? " (shift mode)" : " (fixed rounding)"));
    m_args.rounding = cube::effective_rounding(mode, rmode);
    m_args.saturate = sat;
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // LB0 = M, LB1 = N, LB2 = K: omitted -> 1; zero and non-powers of two reject (ADR 0079
  // Decision 049); TGEMV fixes M = 1 (Decision 055).
  Status resolve_dimensions() {
    static constexpr const char* kNames[] = {"LB0 (M)", "LB1 (N)", "LB2 (K)"};
    std::uint32_t v[3] = {1, 1, 1};
    for (int i = 0; i < 3; ++i) {
      auto lb = resolve_lb(m_b, m_s, i);
      if (!lb) return lb.fault();
      if (!*lb) continue;
      v[i] = **lb;
      if (v[i] == 0) return legality(std::string(kNames[i]) + " resolves to 0; CUBE dimensions must be non-zero");
      if (!is_pow2(v[i]))
        return legality(std::string(kNames[i]) + " = " + std::to_string(v[i]) + " is not a power of two");
    }
    if (m_facts.gemv && v[0] != 1) return legality(m_b.mnemonic + " has M = 1, but LB0 resolves to " + std::to_string(v[0]));
    m_args.m = v[0];
    m_args.n = v[1];
    m_args.k = v[2];
    m_scale_blocks = (m_args.k + 31) / 32;
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // B.IOR parameter words, from each PE's own GPRs (BundleOperationGPRBindingValuesLegal). An
  // omitted B.IOR reads the zero register.
  Status read_scalars() {
    const CubeFpatr& f = m_args.fpatr;
    if (m_facts.scalar_slots == 0) return std::nullopt;
    const auto values = model::read_scalars(m_b, m_s, m_facts.mask);
    for (int pe = 0; pe < kPeCount; ++pe) {
      unsigned slot = 0;
      if (cube::mode_uses_scalar_param(f.prequant_mode)) {
        const std::uint64_t w = values[pe][slot++];
        if (!cube::quant_param_word_legal(f.prequant_mode, w))
          return legality("B.IOR QuantParam " + hex_literal(w) + " on PE" + std::to_string(pe) + " is not a legal " +
                          cube::prequant_mode_name(f.prequant_mode) + " parameter word");
        m_args.quant_param[pe] = w;
      }
      if (f.relu_mode == 2) {
        const std::uint64_t w = values[pe][slot];
        if (!cube::relu_param_word_legal(w))
          return legality("B.IOR LReLU/PReLU alpha " + hex_literal(w) + " on PE" + std::to_string(pe) +
                          " is not an FP19 +0 or positive normal in bits 18:0");
        m_args.relu_param[pe] = w;
      }
    }
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // Shared sources (BundleMatrixSharedSchemasLegal): complete operand groups, fully published
  // RowMajor tiles, read in their stored orientation.
  Status shared_source(unsigned ordinal, const char* role, std::uint32_t rows, std::uint32_t cols, DataType t,
                       bool transpose, int& index) {
    const unsigned id = m_b.ios[ordinal].shared_id;
    const SharedTile& st = m_s.shared(id);
    auto name = [&] { return std::string(role) + " " + TileRef::shared(id).name(); };  // fault text only
    const std::uint32_t stored_rows = transpose ? cols : rows, stored_cols = transpose ? rows : cols;
    // SharedTileCooperativeMatrixReady: allocated for, initialised by and published to all PEs.
    if (!st.allocated) return legality("Shared " + name() + " is not allocated");
    if (st.allocation_mask != PeMask::all())
      return legality("Shared " + name() + " is allocated for PEs " + st.allocation_mask.to_string() + ", not 1111");
    if (st.initialized_mask != PeMask::all())
      return legality("Shared " + name() + " has uninitialised quarters (initialised " + st.initialized_mask.to_string() + ")");
    if (!st.published) return legality("Shared " + name() + " is not published");
    if (!st.valid_region_defined()) return legality("Shared " + name() + " has an undefined element in its valid region");
    // SharedTileReadSchemaLegal.
    if (st.desc.layout != Layout::RowMajor) return legality("Shared " + name() + " must be RowMajor");
    if (st.desc.dtype != t)
      return legality("Shared " + name() + " is " + data_type_name(st.desc.dtype) + ", expected " + data_type_name(t));
    if (st.desc.cols != stored_cols)
      return legality("Shared " + name() + " has " + std::to_string(st.desc.cols) + " physical columns; the stored " +
                      shape(stored_rows, stored_cols) + " operand needs " + std::to_string(stored_cols));
    if (stored_rows > st.desc.valid_rows || stored_cols > st.desc.valid_cols)
      return legality("Shared " + name() + " valid region " + shape(st.desc.valid_rows, st.desc.valid_cols) +
                      " does not contain the stored " + shape(stored_rows, stored_cols) + " operand");
    index = push_source(SourceOperand{TileRef::shared(id), id, st.desc});
    return std::nullopt;
  }

  Status check_shared() {
    if (!m_facts.right_shared) return std::nullopt;
    const CubeArgs& a = m_args;
    unsigned ordinal = 0;
    // The validated Shared operands wait in m_plan.sources; check_matrix_sources puts every
    // source into architectural order.
    if (m_facts.left_shared) {
      if (Status f = shared_source(ordinal++, "A", a.m, a.k, a.a_dtype, a.trans_a, m_shared_a)) return f;
      if (m_facts.left_scaled)
        if (Status f = shared_source(ordinal++, "SA", a.m, m_scale_blocks, DataType::E8M0, false, m_shared_sa)) return f;
    }
    if (Status f = shared_source(ordinal++, "B", a.k, a.n, a.b_dtype, a.trans_b, m_shared_b)) return f;
    if (m_facts.right_scaled)
      if (Status f = shared_source(ordinal, "SB", m_scale_blocks, a.n, DataType::E8M0, false, m_shared_sb)) return f;
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // Local sources.

  /// The Local source at `ordinal` of the stream, available and defined, into `out`: written in
  /// place, as every bundle looks up several.
  Status local(unsigned ordinal, const char* role, std::optional<SourceOperand>& out) {
    auto src = local_source(m_s, m_facts.local[ordinal], m_facts.mask, role);
    if (!src) return src.fault();
    const LocalTile& t = m_s.slot(src->slot);
    if (const int pe = t.first_pe_with_undefined_region(m_facts.mask); pe >= 0)
      return legality(std::string(role) + " " + src->ref.name() + " has an undefined element in its valid region on PE" +
                      std::to_string(pe));
    out = *src;
    return std::nullopt;
  }

  // The checks below run on every operand of every bundle: each builds its fault text in a
  // function of its own, which keeps the check small enough to inline.

  static Status expect_valid(const SourceOperand& s, const char* role, std::uint32_t rows, std::uint32_t cols) {
    if (s.desc.valid_rows == rows && s.desc.valid_cols == cols) return std::nullopt;
    return wrong_valid_shape(s, role, rows, cols);
  }
  static Fault wrong_valid_shape(const SourceOperand& s, const char* role, std::uint32_t rows, std::uint32_t cols) {
    return legality(std::string(role) + " " + s.ref.name() + " has valid shape " + shape(s.desc.valid_rows, s.desc.valid_cols) +
                    ", expected " + shape(rows, cols));
  }

  static Status expect_type(const SourceOperand& s, const char* role, DataType t) {
    if (s.desc.dtype == t) return std::nullopt;
    return wrong_type(s, role, t);
  }
  static Fault wrong_type(const SourceOperand& s, const char* role, DataType t) {
    return legality(std::string(role) + " " + s.ref.name() + " is " + data_type_name(s.desc.dtype) + ", expected " +
                    data_type_name(t));
  }

  /// An ordinary RowMajor operand: Bias, E8M0 scales and the post-processing inputs.
  static Status expect_row_major(const SourceOperand& s, const char* role) {
    if (s.desc.layout != Layout::RowMajor)
      return legality(std::string(role) + " " + s.ref.name() + " must be RowMajor, not " + layout_name(s.desc.layout));
    return std::nullopt;
  }

  /// A CUBE primary (TileMatrixLocalPrimaryInfoLegal): a consistent CELL descriptor in Matrix.
  Status expect_cube(const SourceOperand& s, const char* role) const {
    if (s.desc.location == Location::Matrix && m_s.slot(s.slot).installed_legal(s.desc)) return std::nullopt;
    const auto problem = descriptor_problem(s.desc);
    if (s.desc.location == Location::Matrix && !problem) return std::nullopt;
    return not_cube(s, role, problem);
  }
  /// The location first, then the descriptor.
  static Fault not_cube(const SourceOperand& s, const char* role, const std::optional<DescriptorProblem>& problem) {
    if (s.desc.location != Location::Matrix)
      return legality(std::string(role) + " " + s.ref.name() + " must be in location Matrix, not " +
                      location_name(s.desc.location));
    return legality(std::string(role) + " " + s.ref.name() + " descriptor: " + std::string(problem->rule));
  }

  /// TileMatrixMLayoutLegal: CUBE_M16 holds M <= 16 rows, CUBE_M32 M <= 32.
  Status expect_m_layout(const SourceOperand& s, const char* role) const {
    const Layout l = s.desc.layout;
    if ((l == Layout::CubeM16 && m_args.m <= 16) || (l == Layout::CubeM32 && m_args.m <= 32)) return std::nullopt;
    return wrong_m_layout(s, role);
  }
  Fault wrong_m_layout(const SourceOperand& s, const char* role) const {
    if (s.desc.layout != Layout::CubeM16 && s.desc.layout != Layout::CubeM32)
      return legality(std::string(role) + " " + s.ref.name() + " must use CUBE_M16 or CUBE_M32, not " + layout_name(s.desc.layout));
    const std::uint32_t rows = s.desc.layout == Layout::CubeM16 ? 16 : 32;
    return legality(std::string(role) + " " + s.ref.name() + " is " + layout_name(s.desc.layout) + ", which holds " +
                    std::to_string(rows) + " rows; M = " + std::to_string(m_args.m));
  }

  /// ADR 0079 Decision 054: scale tiles have power-of-two physical extents.
  static Status expect_scale(const SourceOperand& s, const char* role, std::uint32_t rows, std::uint32_t cols) {
    if (Status f = expect_row_major(s, role)) return f;
    if (Status f = expect_type(s, role, DataType::E8M0)) return f;
    if (Status f = expect_valid(s, role, rows, cols)) return f;
    if (!is_pow2(s.desc.rows) || !is_pow2(s.desc.cols))
      return legality(std::string(role) + " " + s.ref.name() + " physical shape " + shape(s.desc.rows, s.desc.cols) +
                      " is not a power of two in both extents");
    return std::nullopt;
  }

  /// TileMatrixAuxiliarySourceSchemaLegal: RowMajor, location Any.
  static Status expect_auxiliary(const SourceOperand& s, const char* role, std::uint32_t rows, std::uint32_t cols, DataType t) {
    if (Status f = expect_row_major(s, role)) return f;
    if (s.desc.location != Location::Any)
      return legality(std::string(role) + " " + s.ref.name() + " must be in location Any, not " + location_name(s.desc.location));
    if (Status f = expect_type(s, role, t)) return f;
    return expect_valid(s, role, rows, cols);
  }

  /// The B.IOT binding of the `ordinal`th destination.
  const IotBinding& dest_binding(std::size_t ordinal) const { return m_b.iot[m_facts.dests[ordinal]]; }

  int push_source(const SourceOperand& s) {
    m_plan.sources.push_back(s);
    return static_cast<int>(m_plan.sources.size()) - 1;
  }

  // BundleMatrixPostProcessSourcesLegal: accumulator class of the mode, RowMaxIn, vector
  // QuantParam and vector PReLU tiles (after the mathematical Local sources in the stream).
  Status check_postprocess_sources() {
    const CubeFpatr& f = m_args.fpatr;
    if (!cube::mode_accepts_accumulator(f.prequant_mode, m_args.acc_dtype))
      return legality(std::string("PreQuantMode ") + cube::prequant_mode_name(f.prequant_mode) + " does not accept the " +
                      data_type_name(m_args.acc_dtype) + " accumulator of " + m_b.mnemonic);
    unsigned ordinal = static_cast<unsigned>(m_facts.local.size()) - (f.row_max && f.row_max_init ? 1U : 0U) -
                       (cube::mode_uses_vector_param(f.prequant_mode) ? 1U : 0U) - (f.relu_mode == 3 ? 1U : 0U);
    if (f.row_max && f.row_max_init) {
      if (Status e = local(ordinal++, "RowMaxIn", m_row_max_in)) return e;
      if (Status e = expect_auxiliary(*m_row_max_in, "RowMaxIn", m_args.m, 1, m_args.acc_dtype)) return e;
    }
    if (cube::mode_uses_vector_param(f.prequant_mode)) {
      if (Status e = local(ordinal++, "QuantParam vector", m_quant)) return e;
      if (Status e = expect_auxiliary(*m_quant, "QuantParam vector", 1, m_args.n, DataType::U64)) return e;
      if (Status e = check_vector_words(*m_quant, "QuantParam vector", [mode = f.prequant_mode](std::uint64_t w) {
            return cube::quant_param_word_legal(mode, w);
          }))
        return e;
    }
    if (f.relu_mode == 3) {
      if (Status e = local(ordinal, "PReLU vector", m_relu)) return e;
      if (Status e = expect_auxiliary(*m_relu, "PReLU vector", 1, m_args.n, DataType::U64)) return e;
      if (Status e = check_vector_words(*m_relu, "PReLU vector", cube::relu_param_word_legal)) return e;
    }
    return std::nullopt;
  }

  /// TileMatrixVectorQuantContentsLegal / TileMatrixVectorReluContentsLegal on every PE.
  template <typename Legal>
  Status check_vector_words(const SourceOperand& s, const char* role, Legal legal) {
    if (!m_values) {
      m_plan.skipped_checks.push_back(std::string("parameter words of ") + role + " " + s.ref.name());
      return std::nullopt;
    }
    for (int pe = 0; pe < kPeCount; ++pe) {
      if (!m_facts.mask.has(pe)) continue;
      const std::uint8_t* bytes = m_values->fragment(TileRef::Space::Local, s.slot, pe);
      for (std::uint32_t c = 0; c < s.desc.valid_cols; ++c) {
        const std::uint64_t w = load_element(s.desc, bytes, 0, c);
        if (!legal(w))
          return legality(std::string(role) + " " + s.ref.name() + " column " + std::to_string(c) + " on PE" +
                          std::to_string(pe) + " holds an illegal parameter word " + hex_literal(w));
      }
    }
    return std::nullopt;
  }

  // BundleMatrixLocalMathematicalSourcesLegal, in stream order C, A, SA, B, SB, Bias; then the
  // sources are recorded in architectural order.
  Status check_matrix_sources() {
    CubeArgs& a = m_args;
    unsigned ordinal = 0;
    std::optional<SourceOperand> c, la, lsa, lb, lsb, bias;
    if (a.accumulate)
      if (Status e = local(ordinal++, "C", c)) return e;
    if (!m_facts.left_shared) {
      if (Status e = local(ordinal++, "A", la)) return e;
      if (Status e = expect_m_layout(*la, "A")) return e;
      if (Status e = expect_cube(*la, "A")) return e;
      if (Status e = expect_valid(*la, "A", a.m, a.k)) return e;
      if (Status e = expect_type(*la, "A", a.a_dtype)) return e;
      if (m_facts.left_scaled) {
        if (Status e = local(ordinal++, "SA", lsa)) return e;
        if (Status e = expect_scale(*lsa, "SA", a.m, m_scale_blocks)) return e;
      }
    }
    // D's CUBE layout (BundleMatrixCooperativeMLayout): A's, else C's, else by M.
    m_layout = la ? la->desc.layout : c ? c->desc.layout : a.m <= 16 ? Layout::CubeM16 : Layout::CubeM32;
    if (c) {
      if (Status e = expect_m_layout(*c, "C")) return e;
      if (c->desc.layout != m_layout)
        return legality("C " + c->ref.name() + " is " + layout_name(c->desc.layout) + " but A is " + layout_name(m_layout));
      if (Status e = expect_cube(*c, "C")) return e;
      if (Status e = expect_valid(*c, "C", a.m, a.n)) return e;
      if (Status e = expect_type(*c, "C", a.acc_dtype)) return e;
      const std::uint32_t d_capacity = size_code_bytes(dest_binding(0).size_code);
      if (a.fpatr.prequant_mode == 0 && c->desc.capacity_bytes != d_capacity)
        return legality("C " + c->ref.name() + " capacity " + std::to_string(c->desc.capacity_bytes) +
                        " B differs from D's " + std::to_string(d_capacity) + " B");
    }
    if (!la && !c && a.m > 32) return legality("M = " + std::to_string(a.m) + " exceeds the 32 rows of CUBE_M32");
    if (!m_facts.right_shared) {
      if (Status e = local(ordinal++, "B", lb)) return e;
      if (lb->desc.layout != Layout::CubeN8)
        return legality("B " + lb->ref.name() + " must use CUBE_N8, not " + layout_name(lb->desc.layout));
      if (Status e = expect_cube(*lb, "B")) return e;
      if (Status e = expect_valid(*lb, "B", a.k, a.n)) return e;
      if (Status e = expect_type(*lb, "B", a.b_dtype)) return e;
      if (m_facts.right_scaled) {
        if (Status e = local(ordinal++, "SB", lsb)) return e;
        if (Status e = expect_scale(*lsb, "SB", m_scale_blocks, a.n)) return e;
      }
    }
    if (a.bias) {
      if (Status e = local(ordinal, "Bias", bias)) return e;
      if (Status e = expect_row_major(*bias, "Bias")) return e;
      if (Status e = expect_valid(*bias, "Bias", 1, a.n)) return e;
      if (Status e = expect_type(*bias, "Bias", a.acc_dtype)) return e;
    }

    // Architectural order; Shared sources were validated (and appended) by check_shared. Copied
    // out, so the plan's list keeps its storage (the dispatcher reuses plans).
    BoundedVector<SourceOperand, kMaxSharedBindings> shared;
    for (const SourceOperand& s : m_plan.sources) shared.push_back(s);
    m_plan.sources.clear();
    m_plan.sources.reserve(m_facts.local.size() + shared.size());
    auto from_shared = [&shared](int index) { return shared[static_cast<std::size_t>(index)]; };
    auto place = [this](const std::optional<SourceOperand>& s) { return s ? push_source(*s) : kAbsent; };
    a.src_c = place(c);
    a.src_a = la ? push_source(*la) : push_source(from_shared(m_shared_a));
    a.src_sa = lsa ? push_source(*lsa) : m_shared_sa != kAbsent ? push_source(from_shared(m_shared_sa)) : kAbsent;
    a.src_b = lb ? push_source(*lb) : push_source(from_shared(m_shared_b));
    a.src_sb = lsb ? push_source(*lsb) : m_shared_sb != kAbsent ? push_source(from_shared(m_shared_sb)) : kAbsent;
    a.src_bias = place(bias);
    a.src_row_max_in = place(m_row_max_in);
    a.src_quant = place(m_quant);
    a.src_relu = place(m_relu);
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // Value checks: TF32/HF32/E3M2/E2M3 inputs must be valid encodings over the region read.
  Status check_encodings() {
    const CubeArgs& a = m_args;
    struct Input {
      int index;
      const char* role;
      std::uint32_t rows, cols;  // logical
      bool transpose;
    };
    for (const Input& in : {Input{a.src_a, "A", a.m, a.k, a.trans_a}, Input{a.src_b, "B", a.k, a.n, a.trans_b}}) {
      const SourceOperand& s = m_plan.sources[static_cast<std::size_t>(in.index)];
      if (!encoding_constrained(s.desc.dtype)) continue;
      if (!m_values) {
        m_plan.skipped_checks.push_back(std::string("encoding validity of ") + in.role + " " + s.ref.name());
        continue;
      }
      for (int pe = 0; pe < kPeCount; ++pe) {
        if (!m_facts.mask.has(pe) || (s.ref.is_shared() && pe > 0)) continue;
        const std::uint8_t* bytes = m_values->fragment(s.ref.space, s.slot, pe);
        for (std::uint32_t r = 0; r < in.rows; ++r)
          for (std::uint32_t c = 0; c < in.cols; ++c) {
            const std::uint64_t v = in.transpose ? load_element(s.desc, bytes, c, r) : load_element(s.desc, bytes, r, c);
            if (!numeric::is_valid_encoding(s.desc.dtype, v))
              return legality(std::string(in.role) + " " + s.ref.name() + " element [" + std::to_string(r) + "," +
                              std::to_string(c) + "]" + (s.ref.is_shared() ? "" : " on PE" + std::to_string(pe)) +
                              " is an invalid " + data_type_name(s.desc.dtype) + " encoding " + hex_literal(v));
          }
      }
    }
    return std::nullopt;
  }

  // ---------------------------------------------------------------------------------------------
  // Destinations (ResolveBundleTMATMULCubeDestinationGroup): D in the CUBE layout, RowMaxOut and
  // GroupMaxOut as ordinary RowMajor tiles of the accumulator type. Unrepresentable shapes are
  // TileAllocation faults.
  Status plan_destinations() {
    CubeArgs& a = m_args;
    m_plan.op = *m_b.op;
    m_plan.dtype = a.a_dtype;
    m_plan.mask = m_facts.mask;
    DestOperand d;
    d.hand = dest_binding(0).destination_hand;
    d.desc.dtype = a.out_dtype;
    d.desc.capacity_bytes = size_code_bytes(dest_binding(0).size_code);
    d.desc.valid_rows = a.m;
    d.desc.valid_cols = a.n;
    d.desc.layout = m_layout;
    d.desc.location = Location::Matrix;
    d.desc.pe_mask = m_facts.mask;
    // M fits m_layout (checked against A or C, or chosen by M), so the CELL storage shape exists.
    const CellShape storage = *cube_storage_shape(m_layout, a.out_dtype, a.m, a.n);
    d.desc.rows = storage.rows;
    d.desc.cols = storage.cols;
    if (auto problem = descriptor_problem(d.desc))
      return fault(FaultCode::TileAllocation,
                   "D (" + shape(a.m, a.n) + " " + data_type_name(a.out_dtype) + ", " +
                       std::to_string(d.desc.capacity_bytes) + " B): " + std::string(problem->rule) +
                       (problem->part == DescriptorProblem::Part::Capacity
                            ? size_code_hint(d.desc.capacity_bytes, a.out_dtype, 0, 0, d.desc.storage_bytes())
                            : ""));
    d.desc_checked = true;
    m_plan.dests.push_back(d);
    unsigned next = 1;
    if (a.fpatr.row_max) {
      if (Status f = auxiliary_destination(next++, "RowMaxOut", 1)) return f;
      a.dst_row_max = static_cast<int>(m_plan.dests.size()) - 1;
    }
    if (a.fpatr.group_max) {
      if (Status f = auxiliary_destination(next, "GroupMaxOut", (a.n + a.fpatr.group_n - 1) / a.fpatr.group_n)) return f;
      a.dst_group_max = static_cast<int>(m_plan.dests.size()) - 1;
    }
    return std::nullopt;
  }

  Status auxiliary_destination(unsigned ordinal, const char* role, std::uint32_t cols) {
    DestOperand d;
    d.hand = dest_binding(ordinal).destination_hand;
    d.desc.dtype = m_args.acc_dtype;
    d.desc.capacity_bytes = size_code_bytes(dest_binding(ordinal).size_code);
    d.desc.cols = cols;
    d.desc.valid_rows = m_args.m;
    d.desc.valid_cols = cols;
    d.desc.layout = Layout::RowMajor;
    d.desc.location = Location::Any;
    d.desc.pe_mask = m_facts.mask;
    const auto rows = derived_rows(d.desc.dtype, d.desc.capacity_bytes, cols);
    if (!rows || *rows < m_args.m)
      return fault(FaultCode::TileAllocation, std::string(role) + ": TSize " + std::to_string(d.desc.capacity_bytes) +
                                                  " B cannot hold " + shape(m_args.m, cols) + " " +
                                                  data_type_name(d.desc.dtype) + " with " + std::to_string(cols) +
                                                  " physical columns" +
                                                  size_code_hint(d.desc.capacity_bytes, d.desc.dtype, cols, m_args.m));
    d.desc.rows = *rows;
    m_plan.dests.push_back(d);
    return std::nullopt;
  }

  const Bundle& m_b;
  const TileState& m_s;
  const IPayloadReader* m_values;
  ExecPlan& m_plan;
  /// What the bundle-only steps find (a memo keeps it), the plan's CUBE arguments among it.
  CubeBundleFacts m_facts;
  CubeArgs& m_args = m_facts.args;
  std::uint32_t m_scale_blocks = 1;
  int m_shared_a = kAbsent, m_shared_sa = kAbsent, m_shared_b = kAbsent, m_shared_sb = kAbsent;
  std::optional<SourceOperand> m_row_max_in, m_quant, m_relu;
  Layout m_layout = Layout::CubeM16;
};

}  // namespace

Status cube_preflight(const Bundle& b, const TileState& s, const IPayloadReader* values, ExecPlan& plan,
                      std::optional<CubeBundleFacts>* memo) {
  return CubePreflight(b, s, values, plan).run(memo);
}

}  // namespace ptosim::model
