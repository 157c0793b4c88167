// SPDX-License-Identifier: BSD-3-Clause
#include "model/bundle/assembler.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>

#include "model/bundle/encoding.h"
#include "model/bundle/field_codes.h"
#include "model/bundle/operation.h"
#include "model/common/pe_mask.h"
#include "model/common/text.h"
#include "model/state/tile_ref.h"

namespace ptosim::model {

namespace {

enum class Tok { Word, Comma, Equals, Arrow, Less, Greater, End };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  int column = 1;  ///< 1-based
};

/// Characters of words (mnemonics, names, numbers), by byte: the tokenizer asks it of nearly
/// every character of a program.
constexpr std::array<bool, 256> kWordChars = [] {
  std::array<bool, 256> word{};
  for (int c = 0; c < 256; ++c) word[c] = ascii_alnum(static_cast<char>(c)) || c == '_' || c == '.' || c == '#';
  return word;
}();
bool is_word_char(char c) { return kWordChars[static_cast<unsigned char>(c)]; }

/// Parses one line into one instruction. Every parse_* member returns false (with m_error set to
/// the first problem) when the line does not match.
class LineParser {
 public:
  /// `tokens` is scratch space the caller lends every line (no allocation per line).
  LineParser(std::string_view line, int line_no, const FileName& file, std::vector<Token>& tokens)
      : m_line(line), m_tokens(tokens) {
    m_loc.file = file;
    m_loc.line = line_no;
  }

  /// Tokenizes and parses; false on error. An empty line yields no instruction.
  bool run() {
    if (!tokenize()) return false;
    if (m_tokens.front().kind == Tok::End) return true;
    m_loc.column = m_tokens.front().column;
    InstructionBody body;
    if (!parse_instruction(body)) return false;
    m_instruction = Instruction{body, m_loc};
    return true;
  }

  const std::optional<Instruction>& instruction() const { return m_instruction; }
  const AsmError& error() const { return *m_error; }

 private:
  // ---- tokens ----
  bool tokenize() {
    std::size_t i = 0;
    while (i < m_line.size()) {
      const char c = m_line[i];
      const int column = static_cast<int>(i) + 1;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
      } else if (c == ';') {
        break;
      } else if (is_word_char(c)) {
        std::size_t j = i;
        while (j < m_line.size() && is_word_char(m_line[j])) ++j;
        add({Tok::Word, m_line.substr(i, j - i), column});
        i = j;
      } else if (c == '-' && i + 1 < m_line.size() && m_line[i + 1] == '>') {
        add({Tok::Arrow, m_line.substr(i, 2), column});
        i += 2;
      } else if (c == ',' || c == '=' || c == '<' || c == '>') {
        const Tok kind = c == ',' ? Tok::Comma : c == '=' ? Tok::Equals : c == '<' ? Tok::Less : Tok::Greater;
        add({kind, m_line.substr(i, 1), column});
        ++i;
      } else {
        char what[32];
        if (std::isprint(static_cast<unsigned char>(c)))
          std::snprintf(what, sizeof what, "'%c'", c);
        else
          std::snprintf(what, sizeof what, "byte 0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
        return fail(column, std::string("unexpected character ") + what);
      }
    }
    add({Tok::End, {}, static_cast<int>(i) + 1});
    return true;
  }
  /// Appends a token. The lent tokens are overwritten in place (a vector's append checks and may
  /// grow its capacity per token); they grow only past the most any line before had.
  void add(const Token& t) {
    if (m_count == m_tokens.size()) grow_tokens();
    m_tokens[m_count++] = t;
  }
  /// Out of line, so that add stays small enough to inline.
  [[gnu::noinline]] void grow_tokens() { m_tokens.resize(2 * m_tokens.size() + 16); }

  const Token& peek() const { return m_tokens[m_pos]; }
  const Token& next() {
    const Token& t = m_tokens[m_pos];
    if (t.kind != Tok::End) ++m_pos;
    return t;
  }
  bool at(Tok kind) const { return peek().kind == kind; }
  bool accept(Tok kind) {
    if (!at(kind)) return false;
    next();
    return true;
  }

  static std::string describe(const Token& t) {
    return t.kind == Tok::End ? std::string("end of line") : "'" + std::string(t.text) + "'";
  }

  bool fail(int column, std::string message) {
    if (!m_error) {
      SourceLoc loc = m_loc;
      loc.column = column;
      m_error = AsmError{loc, std::move(message)};
    }
    return false;
  }
  bool fail_at(const Token& t, std::string_view expected) {
    return fail(t.column, "expected " + std::string(expected) + ", found " + describe(t));
  }
  bool expect(Tok kind, const char* what) {
    if (accept(kind)) return true;
    return fail_at(peek(), what);
  }
  bool expect_end() { return expect(Tok::End, "end of line"); }
  /// After a list's item, not at the end of the line: the ',' and the next `item` (a list never
  /// ends in ',').
  bool comma_then(const char* item) {
    if (!expect(Tok::Comma, "',' or end of line")) return false;
    return !at(Tok::End) || fail_at(peek(), std::string(item) + " after ','");
  }

  bool word(const Token*& out, std::string_view expected) {
    if (!at(Tok::Word)) return fail_at(peek(), expected);
    out = &next();
    return true;
  }

  /// A number 0..max (decimal or 0x hex).
  bool number(unsigned& out, unsigned long long max, const std::string& what) {
    // Fault texts are built only for faults: large programs take this path on nearly every line.
    const auto expected = [&] { return what + " (0.." + std::to_string(max) + ")"; };
    if (!at(Tok::Word)) return fail_at(peek(), expected());
    const Token* t = &next();
    const auto v = parse_unsigned(t->text);
    if (!v) return fail_at(*t, expected());
    if (*v > max) return fail(t->column, what + " " + std::string(t->text) + " is out of range 0.." + std::to_string(max));
    out = static_cast<unsigned>(*v);
    return true;
  }

  // ---- operand parsers ----
  bool data_type(std::uint8_t& out) {
    const Token* t = nullptr;
    const char* expected = "a DataType (FP32, S8, U32, ..., none, or a code 0..31)";
    if (!word(t, expected)) return false;
    const auto code = parse_data_type(t->text);
    if (!code) return fail_at(*t, expected);
    out = static_cast<std::uint8_t>(*code);
    return true;
  }

  bool gpr(std::uint8_t& out) {
    const Token* t = nullptr;
    const char* expected = "a GPR (zero, r1..r31 or an ABI name)";
    if (!word(t, expected)) return false;
    std::string why;
    const auto sel = parse_gpr(t->text, &why);
    if (!sel) return why.empty() ? fail_at(*t, expected) : fail(t->column, why);
    out = static_cast<std::uint8_t>(*sel);
    return true;
  }

  /// LB<n> with n <= max_lb.
  bool lb_name(std::uint8_t& out, unsigned max_lb, const char* mnemonic) {
    const Token* t = nullptr;
    const char* expected = max_lb == 3 ? "LB0, LB1, LB2 or LB3" : "LB0, LB1 or LB2";
    if (!word(t, expected)) return false;
    const std::string_view u = t->text;
    if (u.size() != 3 || !iequal(u.substr(0, 2), "LB") || u[2] < '0' || u[2] > '3') return fail_at(*t, expected);
    const unsigned n = static_cast<unsigned>(u[2] - '0');
    if (n > max_lb) return fail(t->column, std::string(mnemonic) + " writes LB0..LB2 only");
    out = static_cast<std::uint8_t>(n);
    return true;
  }

  bool mask(std::uint8_t& pe_mode) {
    const Token* t = nullptr;
    if (!word(t, "mask=<PE0..PE3 bits>")) return false;
    if (!iequal(t->text, "mask")) return fail_at(*t, "mask=<PE0..PE3 bits>");
    if (!expect(Tok::Equals, "'=' after mask")) return false;
    if (!word(t, "four mask bits, PE0 first (e.g. 1111)")) return false;
    const auto m = PeMask::parse(t->text);
    if (!m) return fail_at(*t, "four mask bits, PE0 first (e.g. 1111)");
    const auto mode = m->pe_mode();
    if (!mode)
      return fail(t->column, "mask " + std::string(t->text) +
                                 " is not encodable; PEMode masks are 0000 1000 0100 0010 0001 1100 1110 1111");
    pe_mode = static_cast<std::uint8_t>(*mode);
    return true;
  }

  /// "<SizeCode>" or "<bytes>" with a B, K, KB or KiB suffix; max_code bounds the byte form.
  bool size(std::uint8_t& out, unsigned max_code) {
    if (!expect(Tok::Less, "'<' before the SizeCode")) return false;
    const auto expected = [&] {
      return "a SizeCode (1.." + std::to_string(max_code) + ") or a byte size (128B.." +
             (max_code == kIosMaxSizeCode ? "256KiB)" : "64KiB)");
    };
    if (!at(Tok::Word)) return fail_at(peek(), expected());
    const Token* t = &next();
    std::string_view text = t->text;
    std::size_t digits = 0;
    while (digits < text.size() && ascii_digit(text[digits])) ++digits;
    const auto value = parse_unsigned(text.substr(0, digits));
    if (!value) return fail_at(*t, expected());
    const std::string_view suffix = text.substr(digits);
    if (suffix.empty()) {
      if (*value > 15) return fail(t->column, "SizeCode " + std::string(text) + " does not fit its 4-bit field");
      out = static_cast<std::uint8_t>(*value);
    } else {
      const auto bytes = bytes_in(*value, suffix);
      if (!bytes) return fail_at(*t, expected());
      const auto code = *bytes <= size_code_to_bytes(max_code) ? bytes_to_size_code(static_cast<unsigned long>(*bytes))
                                                              : std::nullopt;
      if (!code)
        return fail(t->column, std::string(text) + " is not a destination size (a power of two from 128B to " +
                                   (max_code == kIosMaxSizeCode ? "256KiB)" : "64KiB)"));
      out = static_cast<std::uint8_t>(*code);
    }
    return expect(Tok::Greater, "'>' after the SizeCode");
  }

  // ---- instructions ----
  bool parse_instruction(InstructionBody& body) {
    const Token& m = next();
    if (m.kind != Tok::Word) return fail_at(m, "a mnemonic");
    const std::string_view w = m.text;
    if (iequal(w, "B.DIM")) return parse_dim(body, false);
    if (iequal(w, "B.IOT")) return parse_iot(body);
    if (iequal(w, "BSTOP")) return stop(body, BStop{});
    if (iequal(w, "C.B.DIMI")) return parse_dim(body, true);
    if (iequal(w, "B.DATR")) return parse_datr(body);
    if (iequal(w, "B.FPATR")) return parse_fpatr(body);
    if (iequal(w, "B.IOR")) return parse_ior(body);
    if (iequal(w, "B.IOS")) return parse_ios(body);
    if (iequal(w, "C.BSTOP")) return stop(body, CBStop{});
    if (iequal(w, "L.BSTOP")) return stop(body, LBStop{});
    if (iequal(w, ".WORD")) return parse_word(body);
    const std::string mn = upper(w);  // the BSTART forms, which fault texts name in capitals
    if (mn == "BSTART.SFU" || mn == "BSTART.VEC" || mn == "BSTART.TEPL") return parse_tepl(mn, body);
    if (mn.compare(0, 7, "BSTART.") == 0) {
      const auto op = operation_from_mnemonic(mn.substr(7));
      if (op && operation_engine(*op) == Engine::Cube) {
        BStartCube s;
        s.function = operation_info(*op).function;
        if (!data_type(s.dtype) || !expect_end()) return false;
        body = s;
        return true;
      }
    }
    // .tile, .data and the other program-file directives are read by ptosim run, before assembly.
    if (!w.empty() && w[0] == '.')
      return fail(m.column, "unknown directive '" + std::string(m.text) +
                                "' (assembly takes .word only; .tile, .data and the like belong to a program file "
                                "for ptosim run)");
    return fail(m.column, "unknown mnemonic '" + std::string(m.text) + "'");
  }

  bool stop(InstructionBody& body, InstructionBody value) {
    if (!expect_end()) return false;
    body = value;
    return true;
  }

  bool parse_tepl(const std::string& mn, InstructionBody& body) {
    BStartTepl s;
    if (at(Tok::Word) && ascii_digit(peek().text[0])) {
      if (mn != "BSTART.TEPL")
        return fail(peek().column, mn + " takes an operation name; numeric Mode, Function is the BSTART.TEPL form");
      unsigned mode = 0, function = 0;
      if (!number(mode, 3, "Mode") || !expect(Tok::Comma, "','") || !number(function, 31, "Function") ||
          !expect(Tok::Comma, "','"))
        return false;
      s.mode = static_cast<std::uint8_t>(mode);
      s.function = static_cast<std::uint8_t>(function);
    } else {
      const Token* t = nullptr;
      if (!word(t, "an operation name")) return false;
      const std::string name = upper(t->text);
      const TeplSelectorInfo* sel = tepl_selector_by_name(name);
      if (!sel) {
        const auto op = operation_from_mnemonic(name);
        if (op && operation_engine(*op) == Engine::Cube)
          return fail(t->column, name + " is a CUBE operation: write BSTART." + name + " <DataType>");
        return fail(t->column, "unknown TEPL operation '" + std::string(t->text) + "'");
      }
      if (mn == "BSTART.SFU" && !sel->sfu)
        return fail(t->column, name + " is a VEC operation: use BSTART.VEC (or BSTART.TEPL)");
      if (mn == "BSTART.VEC" && sel->sfu)
        return fail(t->column, name + " is an SFU operation: use BSTART.SFU (or BSTART.TEPL)");
      s.mode = sel->mode;
      s.function = sel->function;
      if (!expect(Tok::Comma, "',' after the operation")) return false;
    }
    if (!data_type(s.dtype) || !expect_end()) return false;
    body = s;
    return true;
  }

  /// B.DIM <gpr>, <uimm17>, ->LB<n> | C.B.DIMI <imm8>, ->LB<n>, or the shorthand LB<n>=<imm>.
  bool parse_dim(InstructionBody& body, bool compressed) {
    const char* mnemonic = compressed ? "C.B.DIMI" : "B.DIM";
    const unsigned max_lb = compressed ? 3 : 2;
    const unsigned long long max_imm = compressed ? 255 : (1U << 17) - 1;
    const char* imm_name = compressed ? "imm8" : "uimm17";
    std::uint8_t reg = 0, lb = 0;
    unsigned imm = 0;
    const bool shorthand = at(Tok::Word) && m_tokens[m_pos + 1].kind == Tok::Equals;
    if (shorthand) {
      if (!lb_name(lb, max_lb, mnemonic) || !expect(Tok::Equals, "'='") || !number(imm, max_imm, imm_name))
        return false;
    } else {
      if (!compressed && (!gpr(reg) || !expect(Tok::Comma, "','"))) return false;
      if (!number(imm, max_imm, imm_name) || !expect(Tok::Comma, "','") || !expect(Tok::Arrow, "'->LB<n>'") ||
          !lb_name(lb, max_lb, mnemonic))
        return false;
    }
    if (!expect_end()) return false;
    if (compressed)
      body = CBDimi{lb, static_cast<std::uint8_t>(imm)};
    else
      body = BDim{lb, reg, imm};
    return true;
  }

  /// "name=value" list, each name at most once; calls set(name_token, value_token).
  template <typename Set>
  bool field_list(Set set) {
    std::vector<std::string> seen;
    while (!at(Tok::End)) {
      const Token* name = nullptr;
      const Token* value = nullptr;
      if (!word(name, "a field name") || !expect(Tok::Equals, "'=' after the field name") ||
          !word(value, "a field value"))
        return false;
      const std::string key = upper(name->text);
      for (const std::string& s : seen)
        if (s == key) return fail(name->column, "field '" + std::string(name->text) + "' given twice");
      seen.push_back(key);
      if (!set(key, *name, *value)) return false;
      if (!at(Tok::End) && !comma_then("a field name")) return false;
    }
    return true;
  }

  bool field_value(const Token& value, unsigned max, const std::string& field, unsigned& out) {
    const auto v = parse_unsigned(value.text);
    if (!v) return fail_at(value, field + " value (0.." + std::to_string(max) + ")");
    if (*v > max) return fail(value.column, field + " " + std::string(value.text) + " is out of range 0.." + std::to_string(max));
    out = static_cast<unsigned>(*v);
    return true;
  }

  /// A value that is one of `names` (case-insensitive, index = code) or a number 0..max.
  bool named_value(const Token& value, const char* const* names, unsigned count, unsigned max,
                   const std::string& field, unsigned& out) {
    for (unsigned i = 0; i < count; ++i)
      if (names[i] && iequal(value.text, names[i])) {
        out = i;
        return true;
      }
    if (parse_unsigned(value.text)) return field_value(value, max, field, out);
    std::string list;
    for (unsigned i = 0; i < count; ++i)
      if (names[i]) list += std::string(list.empty() ? "" : " ") + names[i];
    return fail_at(value, field + " (" + list + " or 0.." + std::to_string(max) + ")");
  }

  bool parse_datr(InstructionBody& body) {
    DatrFields f;
    bool pad_seen = false;
    const bool ok = field_list([&](const std::string& key, const Token& name, const Token& value) {
      unsigned v = 0;
      if (key == "DTYPE" || key == "DATATYPE") {
        const auto code = parse_data_type(value.text);
        if (!code) return fail_at(value, "a DataType (FP32, S8, U32, ..., none, or a code 0..31)");
        f.dtype_code = static_cast<std::uint8_t>(*code);
        return true;
      }
      if (key == "PAD" || key == "PADVALUE" || key == "BYTEID") {
        if (pad_seen) return fail(name.column, "pad and byteid share the PadValueOrByteId field; give one of them");
        pad_seen = true;
        static const char* const kPadNames[] = {"zero", "max", "min", "null"};
        const bool ok_value = key == "BYTEID" ? field_value(value, 3, "byteid", v)
                                              : named_value(value, kPadNames, 4, 3, "pad", v);
        f.pad_or_byte_id = static_cast<std::uint8_t>(v);
        return ok_value;
      }
      if (key == "RMODE") {
        static const char* const kRmodeNames[] = {"none", "rne", "rtz", "rdn", "rup", "rna", "rto", "rhb"};
        if (iequal(value.text, "rtm")) v = 3;
        else if (iequal(value.text, "rtp")) v = 4;
        else if (!named_value(value, kRmodeNames, 8, 7, "rmode", v)) return false;
        f.rmode = static_cast<std::uint8_t>(v);
        return true;
      }
      if (key == "SAT" || key == "CANON" || key == "CANONICALIZE") {
        if (!field_value(value, 1, std::string(name.text), v)) return false;
        (key == "SAT" ? f.sat : f.canonicalize) = v != 0;
        return true;
      }
      if (key == "LAYOUT") {
        if (const auto code = datr_layout_from_name(value.text))
          v = *code;
        else if (!parse_unsigned(value.text))
          return fail_at(value, "a layout (NORM, ND2DN, ND2ZN, ..., NZ2ZN) or a code 0..31");
        else if (!field_value(value, 31, "layout", v))
          return false;
        f.layout = static_cast<std::uint8_t>(v);
        return true;
      }
      if (key == "CMODE") {
        static const char* const kCmodeNames[] = {"eq", "ne", "lt", "gt", "le", "ge"};
        if (!named_value(value, kCmodeNames, 6, 7, "cmode", v)) return false;
        f.cmode = static_cast<std::uint8_t>(v);
        return true;
      }
      return fail(name.column, "unknown B.DATR field '" + std::string(name.text) +
                                   "' (dtype, pad, byteid, rmode, sat, layout, cmode, canon)");
    });
    if (!ok) return false;
    body = BDatr{f};
    return true;
  }

  bool parse_fpatr(InstructionBody& body) {
    FpatrFields f;
    const bool ok = field_list([&](const std::string& key, const Token& name, const Token& value) {
      unsigned v = 0;
      const std::string field(name.text);
      if (key == "PREQUANTMODE") {
        if (!field_value(value, 63, field, v)) return false;
        f.prequant_mode = static_cast<std::uint8_t>(v);
      } else if (key == "RELUMODE") {
        if (!field_value(value, 7, field, v)) return false;
        f.relu_mode = static_cast<std::uint8_t>(v);
      } else if (key == "GROUPNCODE") {
        if (!field_value(value, 15, field, v)) return false;
        f.group_n_code = static_cast<std::uint8_t>(v);
      } else {
        bool* flag = key == "ROWMAXEN"     ? &f.row_max_en
                     : key == "GROUPMAXEN" ? &f.group_max_en
                     : key == "ROWMAXINIT" ? &f.row_max_init
                     : key == "MAXABSEN"   ? &f.max_abs_en
                     : key == "TRANSA"     ? &f.trans_a
                     : key == "TRANSB"     ? &f.trans_b
                                           : nullptr;
        if (!flag)
          return fail(name.column, "unknown B.FPATR field '" + field +
                                       "' (prequantmode, relumode, groupncode, rowmaxen, groupmaxen, "
                                       "rowmaxinit, maxabsen, transa, transb)");
        if (!field_value(value, 1, field, v)) return false;
        *flag = v != 0;
      }
      return true;
    });
    if (!ok) return false;
    body = BFpatr{f};
    return true;
  }

  bool parse_ior(InstructionBody& body) {
    IorFields f;
    unsigned sources = 0;
    while (!at(Tok::End)) {
      if (accept(Tok::Arrow)) {
        if (!gpr(f.dst) || !expect_end()) return false;
        break;
      }
      if (sources == 3) return fail(peek().column, "B.IOR takes at most three source GPRs");
      if (!gpr(f.src[sources++])) return false;
      if (!at(Tok::End) && !comma_then("a GPR or '->'")) return false;
    }
    body = BIor{f};
    return true;
  }

  bool parse_iot(InstructionBody& body) {
    BIot b;
    bool mask_seen = false;
    bool last_seen = false;
    const Token* start = &peek();
    while (true) {
      const Token& t = peek();
      if (t.kind == Tok::Arrow) {
        next();
        if (!mask_seen) return fail(t.column, "B.IOT needs mask=<PE0..PE3 bits> before the destination");
        if (b.has_destination) return fail(t.column, "B.IOT takes one destination");
        const Token* hand = nullptr;
        if (!word(hand, "a destination hand T, U, M or N")) return false;
        const std::string_view h = hand->text;
        unsigned index = 4;
        for (unsigned i = 0; i < 4; ++i)
          if (h.size() == 1 && h[0] == kHandLetters[i]) index = i;
        if (index == 4) return fail_at(*hand, "a destination hand T, U, M or N");
        b.has_destination = true;
        b.hand = static_cast<std::uint8_t>(index);
        if (!size(b.size_code, kIotMaxSizeCode)) return false;
        if (b.size_code == 0 && b.source_count > 0)
          return fail(hand->column, "SizeCode 0 means no destination: omit ->" + std::string(h) + "<0>");
      } else if (t.kind == Tok::Word && iequal(t.text, "mask")) {
        if (mask_seen) return fail(t.column, "mask= given twice");
        if (!mask(b.pe_mode)) return false;
        mask_seen = true;
      } else if (t.kind == Tok::Word && iequal(t.text, "last")) {
        next();
        if (!mask_seen) return fail(t.column, "B.IOT needs mask=<PE0..PE3 bits> before last");
        if (last_seen) return fail(t.column, "last given twice");
        last_seen = b.last = true;
      } else if (const std::optional<TileRef> ref = t.kind == Tok::Word ? TileRef::parse(t.text) : std::nullopt) {
        next();
        const TileRef tile = *ref;
        if (tile.is_shared()) return fail(t.column, std::string(t.text) + " is a Shared tile; bind it with B.IOS");
        if (mask_seen) return fail(t.column, "source tiles come before mask=");
        if (b.source_count == 2) return fail(t.column, "B.IOT takes at most two source tiles");
        b.sources[b.source_count++] = static_cast<std::uint8_t>(tile.index);
      } else {
        return fail_at(t, "a Local tile (T#1..N#16), mask=, last or ->Dst<SizeCode>");
      }
      if (at(Tok::End)) break;
      if (!expect(Tok::Comma, "',' or end of line")) return false;
    }
    if (!mask_seen) return fail(start->column, "B.IOT needs mask=<PE0..PE3 bits>");
    if (b.source_count == 0 && !b.has_destination)
      return fail(start->column, "B.IOT needs a source tile or a destination");
    body = b;
    return true;
  }

  bool shared_tile(std::uint8_t& out) {
    const Token* t = nullptr;
    if (!word(t, "a Shared tile (S0..S255)")) return false;
    const auto tile = TileRef::parse(t->text);
    if (!tile) return fail_at(*t, "a Shared tile (S0..S255)");
    if (tile->is_local()) return fail(t->column, std::string(t->text) + " is a Local tile; bind it with B.IOT");
    out = static_cast<std::uint8_t>(tile->index);
    return true;
  }

  bool parse_ios(InstructionBody& body) {
    BIos b;
    if (at(Tok::Word) && iequal(peek().text, "mask")) {
      if (!mask(b.pe_mode) || !expect(Tok::Comma, "','") || !expect(Tok::Arrow, "'->S<n><SizeCode>'") ||
          !shared_tile(b.shared_id))
        return false;
      const Token& size_token = peek();
      if (!size(b.size_code, kIosMaxSizeCode)) return false;
      if (b.size_code == 0)
        return fail(size_token.column, "SizeCode 0 is the source form: write B.IOS S<n>, mask=<bits>");
    } else if (!shared_tile(b.shared_id) || !expect(Tok::Comma, "','") || !mask(b.pe_mode)) {
      return false;
    }
    if (!expect_end()) return false;
    body = b;
    return true;
  }

  /// .word 0x<hex>: one raw instruction unit, written with exactly the hex digits of its width.
  bool parse_word(InstructionBody& body) {
    const Token* t = nullptr;
    const char* expected = "a hexadecimal instruction unit (0x followed by 4, 8, 12 or 16 digits)";
    if (!word(t, expected)) return false;
    const std::string_view text = t->text;
    if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return fail_at(*t, expected);
    const auto value = parse_unsigned(text);
    if (!value) return fail_at(*t, expected);
    const unsigned width = unit_length_bits(static_cast<std::uint16_t>(*value));
    if (text.size() - 2 != width / 4)
      return fail(t->column, "the low nibble of " + std::string(text) + " encodes a " + std::to_string(width) +
                                 "-bit instruction unit, written with exactly " + std::to_string(width / 4) +
                                 " hex digits");
    if (!expect_end()) return false;
    body = decode(*value, width);
    return true;
  }

  std::string_view m_line;
  SourceLoc m_loc;
  std::vector<Token>& m_tokens;  ///< the line's are the first m_count; an End token ends them
  std::size_t m_count = 0;
  std::size_t m_pos = 0;
  std::optional<AsmError> m_error;
  std::optional<Instruction> m_instruction;
};

/// The lines of `text` that are neither blank nor only a comment: an upper bound of its
/// instructions, which a large program's instruction list is reserved for once (a program file's
/// directive lines are blank by then). Lines are found by memchr, which scans many bytes at a time;
/// only their leading blanks are looked at.
std::size_t count_statement_lines(std::string_view text) {
  std::size_t count = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    while (p != end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    if (p == end) break;
    count += *p != '\n' && *p != ';';
    p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (!p) break;
    ++p;
  }
  return count;
}

}  // namespace

std::string format_error(const AsmError& e) { return format_location(e.loc) + ": error: " + e.message; }

Assembly assemble(std::string_view text, const std::string& file_name) {
  Assembly result;
  const FileName file(file_name);
  int line_no = 0;
  std::vector<Token> tokens;
  result.instructions.reserve(count_statement_lines(text));
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF: the end of line is before the CR
    LineParser parser(line, ++line_no, file, tokens);
    if (!parser.run())
      result.errors.push_back(parser.error());
    else if (parser.instruction())
      result.instructions.push_back(*parser.instruction());
    start = end + 1;
  }
  return result;
}

}  // namespace ptosim::model
