// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/ptosim/program_file.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <type_traits>

#include "model/bundle/instruction.h"
#include "model/common/text.h"
#include "model/numeric/float_format.h"
#include "model/numeric/scalar_ops.h"
#include "model/state/element_access.h"
#include "platforms/files.h"
#include "platforms/ptosim/scenario.h"
#include "platforms/shown_text.h"

namespace ptosim::platforms {

namespace {

struct Token {
  std::string text;
  int column;  // 1-based
};

/// Blanks and commas separate a line's tokens (and a value file's values).
bool separates(char c) { return std::isspace(static_cast<unsigned char>(c)) || c == ','; }

/// `text` without the UTF-8 byte order mark some editors write first.
std::string_view without_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  return text.substr(0, kBom.size()) == kBom ? text.substr(kBom.size()) : text;
}

/// Where a comma separates nothing in `text` (0-based): one with no token after it before another
/// comma or the end, or, unless `leading_ok`, one before the first token. A ';' comment runs to the
/// line's end. Values are never skipped silently, so "1,,2" and "1, 2," are errors (a directive
/// line may start with separators, which are its leading blanks).
std::optional<std::size_t> empty_field(std::string_view text, bool leading_ok) {
  bool token_before = !leading_ok;
  std::optional<std::size_t> open;  // a comma still waiting for its next token
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ';') {
      i = std::min(text.find('\n', i), text.size()) - 1;  // the line end, if any, is a blank
    } else if (text[i] == ',') {
      if (open) return open;
      if (token_before) open = i;
    } else if (!std::isspace(static_cast<unsigned char>(text[i]))) {
      token_before = true;
      open.reset();
    }
  }
  return open;
}

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ';') break;
    if (separates(line[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line.size() && !separates(line[i]) && line[i] != ';') ++i;
    tokens.push_back(Token{line.substr(start, i - start), static_cast<int>(start + 1)});
  }
  return tokens;
}

/// Whether tokenize(line) would start with a directive (a token beginning with '.', but .word,
/// which is assembly); assembly lines, nearly all of a large program, pass on untokenized.
bool starts_directive(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ';') return false;
    if (separates(c)) continue;
    if (c != '.') return false;
    const std::string_view word = line.substr(i, 5);
    return !(model::iequal(word, ".word") && (line.size() == i + 5 || separates(line[i + 5]) || line[i + 5] == ';'));
  }
  return false;
}

/// A size in bytes: a number, or decimal digits with the assembler's units (4KiB, 4K, 512B).
std::optional<std::uint64_t> parse_size(std::string_view text) {
  const auto unit_at = text.find_first_not_of("0123456789");
  if (unit_at == 0 || unit_at == std::string_view::npos || (text.size() > 1 && (text[1] == 'x' || text[1] == 'X')))
    return model::parse_unsigned(text);
  const auto count = model::parse_unsigned(text.substr(0, unit_at));
  return count ? model::bytes_in(*count, text.substr(unit_at)) : std::nullopt;
}

/// Whether `text`, which parse_value read as `bits` of floating or scale type `t`, is a finite
/// decimal beyond the type's finite range. parse_value applies the type's overflow rule there
/// (FP32: inf; E4M3, E8M0: NaN; E3M2, E2M3 and the FP4 lanes, which have neither: the largest
/// finite value), a value the text does not say. Written inf and nan, and raw 0x encodings, are
/// taken as they stand.
bool overflows(model::DataType t, std::string_view text, std::uint64_t bits) {
  const model::numeric::FloatFormat* f = model::numeric::float_format(t);
  if (f == nullptr) return false;  // integers: parse_value rejects what does not fit
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return false;
  std::string_view magnitude = text;
  if (!magnitude.empty() && (magnitude[0] == '+' || magnitude[0] == '-')) magnitude.remove_prefix(1);
  for (const char* special : {"inf", "infinity", "nan"})
    if (model::iequal(magnitude, special)) return false;
  if (!std::isfinite(model::numeric::to_double(t, bits))) return true;
  if (f->has_inf || f->nan != model::numeric::NanStyle::None) return false;
  // Rounded with an unbounded exponent, the value overflows from half a step above the largest
  // finite value on (a tie rounds up: these types' largest significand is odd). The text read as
  // a binary64 is compared; it rounds only beyond 17 significant digits.
  const auto wide = model::numeric::parse_value(model::DataType::FP64, text);
  const double limit =
      model::numeric::to_double(t, f->max_finite) + std::ldexp(1.0, f->emax - static_cast<int>(f->frac_bits) - 1);
  return wide && std::fabs(model::numeric::to_double(model::DataType::FP64, *wide)) >= limit;
}

/// A value of type `t` in decimal, exactly (format_value gives the shortest text that reads back
/// as the same encoding, "65500" for FP16's 65504, which misleads as a limit).
std::string exact_text(model::DataType t, std::uint64_t bits) {
  if (model::numeric::float_format(t) == nullptr) return model::numeric::format_value(t, bits);
  const double v = model::numeric::to_double(t, bits);  // exact for every floating type
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  return text;
}

/// `text` as an element of type `t`, or nothing with `problem`: not a value of the type (integers
/// out of range included), or a finite number beyond a floating type's largest finite value.
std::optional<std::uint64_t> element_value(model::DataType t, std::string_view text, std::string& problem) {
  const auto bits = model::numeric::parse_value(t, text);
  if (!bits) {
    problem = "'" + std::string(text) + "' is not a " + model::data_type_name(t) + " value";
    if (const model::TypeClass c = model::type_class(t);
        c == model::TypeClass::Signed || c == model::TypeClass::Unsigned)
      problem += " (range [" + model::numeric::format_value(t, model::numeric::lowest_finite(t)) + ", " +
                 model::numeric::format_value(t, model::numeric::max_finite(t)) + "])";
    return std::nullopt;
  }
  if (overflows(t, text, *bits)) {
    problem = "'" + std::string(text) + "' overflows " + model::data_type_name(t) + " (largest finite " +
              exact_text(t, model::numeric::max_finite(t)) + ")";
    return std::nullopt;
  }
  return bits;
}

class Parser {
 public:
  Parser(std::string path, ProgramFile& out) : m_path(std::move(path)), m_out(out) { m_out.path = m_path; }

  bool parse(std::string_view file_text, std::string& error) {
    const std::string_view text = without_bom(file_text);
    // Lines as views of the text (no stream, no copy per line): a large program is nearly all
    // assembly lines, each copied once, into the assembly text.
    m_out.assembly.reserve(text.size() + 1);
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t newline = text.find('\n', start);
      const std::size_t end = newline == std::string_view::npos ? text.size() : newline;
      const std::string_view line = text.substr(start, end - start);
      start = end + 1;
      ++m_line;
      if (starts_directive(line)) {
        if (const auto comma = empty_field(line, true)) {
          fail(static_cast<int>(*comma) + 1, "a comma with no value after it");
          error = m_error;
          return false;
        }
        if (!directive(tokenize(std::string(line)))) {
          error = m_error;
          return false;
        }
      } else {
        m_out.assembly += line;
      }
      m_out.assembly += '\n';
    }
    for (const auto& [index, fill] : m_fill) {
      const ProgramTile& t = m_out.tiles[index];
      const std::uint64_t want = std::uint64_t{t.desc.valid_rows} * t.desc.valid_cols;
      for (int pe = 0; pe < model::kPeCount; ++pe)
        if (fill.count[pe] != 0 && fill.count[pe] != want) {
          fail_at(fill.last[pe].first, fill.last[pe].second,
                  t.ref.name() + " has " + std::to_string(fill.count[pe]) + " values for PE" + std::to_string(pe) +
                      ", its valid region needs " + std::to_string(want));
          error = m_error;
          return false;
        }
    }
    return true;
  }

 private:
  bool fail(int column, const std::string& message) { return fail_at(m_line, column, message); }
  bool fail_at(int line, int column, const std::string& message) {
    // As the assembler reports its errors (format_error): one shape for every line of the file.
    m_error = shown_text(m_path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": error: " + message);
    return false;
  }

  /// The key=value tokens from `from` on (each value's column is its own), the others in `rest`;
  /// nothing, after fail(), when a key is given twice.
  std::optional<std::map<std::string, Token>> options(const std::vector<Token>& tokens, std::size_t from,
                                                      std::vector<Token>& rest) {
    std::map<std::string, Token> opts;
    for (std::size_t i = from; i < tokens.size(); ++i) {
      const auto eq = tokens[i].text.find('=');
      if (eq == std::string::npos) {
        rest.push_back(tokens[i]);
        continue;
      }
      const std::string key = tokens[i].text.substr(0, eq);
      const Token value{tokens[i].text.substr(eq + 1), tokens[i].column + static_cast<int>(eq) + 1};
      if (!opts.emplace(key, value).second) {
        fail(tokens[i].column, key + "= is given twice");
        return std::nullopt;
      }
    }
    return opts;
  }

  ProgramTile* tile(const Token& t) {
    const auto ref = model::TileRef::parse(t.text);
    if (!ref) {
      fail(t.column, "expected a tile register (T#1..N#16, S0..S255), got '" + t.text + "'");
      return nullptr;
    }
    for (ProgramTile& pt : m_out.tiles)
      if (pt.ref == *ref) return &pt;
    fail(t.column, t.text + " is not declared (use .tile first)");
    return nullptr;
  }

  // PEs a data directive writes: pe=PE0..PE3 or all (default) — within the tile's mask. A Shared
  // tile is one payload every PE sees; it is kept as PE0's fragment.
  std::optional<model::PeMask> target_pes(const ProgramTile& t, const std::map<std::string, Token>& opts) {
    if (t.ref.is_shared()) {
      if (opts.count("pe")) {
        fail(opts.at("pe").column, t.ref.name() + " is a Shared tile: one payload for every PE, pe= does not apply");
        return std::nullopt;
      }
      return model::PeMask(0b1000);
    }
    if (!opts.count("pe") || opts.at("pe").text == "all") return t.desc.pe_mask;
    const Token& p = opts.at("pe");
    if (p.text.size() == 3 && p.text.rfind("PE", 0) == 0 && p.text[2] >= '0' && p.text[2] <= '3') {
      const int pe = p.text[2] - '0';
      if (t.desc.pe_mask.has(pe)) return model::PeMask(static_cast<std::uint8_t>(8 >> pe));
      fail(p.column, t.ref.name() + " holds no fragment on " + p.text);
      return std::nullopt;
    }
    fail(p.column, "expected pe=PE0..PE3 or pe=all");
    return std::nullopt;
  }

  /// Appends `value` to the fragments of `pes`; `where` goes before a problem's text (a value
  /// file's file:line:column).
  bool append_value(ProgramTile& t, model::PeMask pes, std::uint64_t value, int column, const std::string& where = "") {
    const std::size_t index = static_cast<std::size_t>(&t - m_out.tiles.data());
    Fill& fill = m_fill[index];
    const std::uint64_t valid = std::uint64_t{t.desc.valid_rows} * t.desc.valid_cols;
    for (int pe = 0; pe < model::kPeCount; ++pe) {
      if (!pes.has(pe)) continue;
      if (fill.count[pe] >= valid)
        return fail(column, where + t.ref.name() + " already has its " + std::to_string(valid) + " valid values on PE" +
                                std::to_string(pe));
      const std::uint64_t r = fill.count[pe] / t.desc.valid_cols, c = fill.count[pe] % t.desc.valid_cols;
      t.data[pe][r * t.desc.cols + c] = value;
      ++fill.count[pe];
      fill.last[pe] = {m_line, column};
    }
    return true;
  }

  bool values(ProgramTile& t, model::PeMask pes, const std::vector<Token>& tokens) {
    for (const Token& v : tokens) {
      std::string problem;
      const auto bits = element_value(t.desc.dtype, v.text, problem);
      if (!bits) return fail(v.column, problem);
      if (!append_value(t, pes, *bits, v.column)) return false;
    }
    return true;
  }

  bool directive(const std::vector<Token>& tokens) {
    const std::string& name = tokens[0].text;
    if (name == ".tile") return tile_directive(tokens);
    if (name == ".data" || name == ".file" || name == ".random" || name == ".fill") {
      if (tokens.size() < 2) return fail(tokens[0].column + static_cast<int>(name.size()), "expected a tile register");
      ProgramTile* t = tile(tokens[1]);
      if (!t) return false;
      std::vector<Token> rest;
      const auto parsed_opts = options(tokens, 2, rest);
      if (!parsed_opts) return false;
      const auto& opts = *parsed_opts;
      for (const auto& [key, value] : opts)
        if (key != "pe" && !(name == ".random" && (key == "seed" || key == "min" || key == "max")))
          return fail(value.column - static_cast<int>(key.size()) - 1,
                      "unknown option '" + key + "' (" + name + " takes " +
                          (name == ".random" ? "seed=, min=, max=, pe=" : "pe=") + ")");
      const auto pes = target_pes(*t, opts);
      if (!pes) return false;
      if (name == ".data") {
        // Options first: a pe= after values would apply to the values before it too.
        for (const auto& [key, value] : opts)
          if (!rest.empty() && value.column > rest[0].column)
            return fail(value.column - static_cast<int>(key.size()) - 1, key + "= comes before the values");
        if (rest.empty()) return fail(tokens[1].column + static_cast<int>(tokens[1].text.size()), "expected values");
        return values(*t, *pes, rest);
      }
      if (name == ".fill") return fill_directive(*t, *pes, tokens, rest);
      if (name == ".file") return file_directive(*t, *pes, tokens, rest);
      return random_directive(*t, *pes, tokens, opts);
    }
    if (name == ".gpr") return gpr_directive(tokens);
    if (name == ".status") {
      if (tokens.size() < 2) return fail(tokens[0].column + 7, "expected a flag name (NV DZ OF UF NX)");
      for (std::size_t i = 1; i < tokens.size(); ++i) {
        const auto f = model::flag_from_name(tokens[i].text);
        if (!f) return fail(tokens[i].column, "expected a flag name (NV DZ OF UF NX)");
        if ((m_out.status & *f) != 0) return fail(tokens[i].column, tokens[i].text + " is already set");
        m_out.status |= *f;
      }
      return true;
    }
    if (name == ".dump") {
      if (tokens.size() < 2) return fail(tokens[0].column + 5, "expected a tile register");
      for (std::size_t i = 1; i < tokens.size(); ++i) {
        const auto ref = model::TileRef::parse(tokens[i].text);
        if (!ref) return fail(tokens[i].column, "expected a tile register, got '" + tokens[i].text + "'");
        m_out.dumps.push_back(*ref);
      }
      return true;
    }
    return fail(tokens[0].column,
                "unknown directive '" + name + "' (expected .tile .data .fill .file .random .gpr .status .dump)");
  }

  bool tile_directive(const std::vector<Token>& tokens) {
    if (tokens.size() < 3) return fail(tokens[0].column, ".tile needs a register and a DataType");
    const auto ref = model::TileRef::parse(tokens[1].text);
    if (!ref) return fail(tokens[1].column, "expected a tile register (T#1..N#16, S0..S255)");
    for (const ProgramTile& pt : m_out.tiles)
      if (pt.ref == *ref) return fail(tokens[1].column, tokens[1].text + " is declared twice");
    const auto dtype = model::data_type_from_name(tokens[2].text);
    if (!dtype) return fail(tokens[2].column, "unknown DataType '" + tokens[2].text + "'");
    std::vector<Token> rest;
    const auto parsed_opts = options(tokens, 3, rest);
    if (!parsed_opts) return false;
    const auto& opts = *parsed_opts;
    if (!rest.empty()) return fail(rest[0].column, "expected key=value, got '" + rest[0].text + "'");
    static const char* kKeys[] = {"cols", "rows", "capacity", "valid", "layout", "location", "mask"};
    for (const auto& [key, tok] : opts) {
      bool known = false;
      for (const char* k : kKeys) known = known || key == k;
      if (!known) return fail(tok.column - static_cast<int>(key.size()) - 1, "unknown .tile option '" + key + "'");
    }
    auto number = [&](const char* key) -> std::optional<std::uint64_t> {
      if (!opts.count(key)) return std::nullopt;
      const std::string& text = opts.at(key).text;
      return std::string_view(key) == "capacity" ? parse_size(text) : model::parse_unsigned(text);
    };
    for (const char* key : {"cols", "rows", "capacity"})
      if (opts.count(key) && !number(key))
        return fail(opts.at(key).column, std::string(key) + ": expected " +
                                             (std::string_view(key) == "capacity" ? "a size in bytes (4096, 0x1000, 4K, 4KB, 4KiB, 128B)"
                                                                                  : "a non-negative integer (decimal or 0x hex)") +
                                             ", got '" + opts.at(key).text + "'");
    auto cols = number("cols");
    const auto rows = number("rows");
    model::Layout layout = model::Layout::RowMajor;
    if (opts.count("layout")) {
      const auto l = model::layout_from_name(opts.at("layout").text);
      if (!l) return fail(opts.at("layout").column, "unknown layout '" + opts.at("layout").text + "' (" + model::layout_names() + ")");
      layout = *l;
    }
    model::Location location = model::Location::Any;
    if (opts.count("location")) {
      const auto l = model::location_from_name(opts.at("location").text);
      if (!l) return fail(opts.at("location").column, "unknown location '" + opts.at("location").text + "' (" + model::location_names() + ")");
      location = *l;
    }
    model::PeMask mask = model::PeMask::all();
    if (opts.count("mask")) {
      const auto m = model::PeMask::parse(opts.at("mask").text);
      if (!m) return fail(opts.at("mask").column, "mask: expected four 0/1 characters, PE0 first");
      if (m->empty()) return fail(opts.at("mask").column, "mask: 0000 names no PE; an input tile needs one to hold it");
      mask = *m;
    }
    if (!opts.count("valid")) return fail(tokens[0].column, ".tile needs valid=ROWSxCOLS");
    const Token& v = opts.at("valid");
    const auto x = v.text.find('x');
    const auto vr = x == std::string::npos ? std::nullopt : model::parse_unsigned(v.text.substr(0, x));
    const auto vc = x == std::string::npos ? std::nullopt : model::parse_unsigned(v.text.substr(x + 1));
    if (!vr || !vc) return fail(v.column, "valid: expected ROWSxCOLS, e.g. valid=4x8");
    // Ordinary layouts default to the smallest power of two of physical columns holding the valid
    // ones (CUBE layouts derive theirs).
    if (!cols && !model::is_cube_layout(layout)) {
      cols = 1;
      while (*cols < *vc && *cols <= model::kMaxDimension) *cols <<= 1;
    }
    // Default capacity: the smallest power of two (>= 128 B) holding the physical shape.
    std::uint64_t capacity = 0;
    if (opts.count("capacity")) {
      capacity = *number("capacity");
    } else {
      std::uint64_t r = rows.value_or(*vr), c = cols.value_or(*vc);
      // A CUBE layout's physical shape is its CELL storage (a valid shape it cannot hold is
      // reported with the descriptor below).
      if (model::is_cube_layout(layout) && *vr <= model::kMaxDimension && *vc <= model::kMaxDimension) {
        if (const auto cells = model::cube_storage_shape(layout, *dtype, static_cast<std::uint32_t>(*vr),
                                                         static_cast<std::uint32_t>(*vc))) {
          r = cells->rows;
          c = cells->cols;
        }
      }
      const std::uint64_t need = (r * c * model::element_bits(*dtype) + 7) / 8;
      capacity = 128;
      while (capacity < need) capacity <<= 1;
    }
    ProgramTile t;
    t.ref = *ref;
    t.loc = model::SourceLoc{m_path, m_line, tokens[0].column};
    const std::string problem =
        make_input_descriptor(InputFields::TileDirective, ref->is_shared(), *dtype, capacity, cols, rows, *vr, *vc, layout,
                              location, mask, t.desc);
    if (!problem.empty()) return fail(tokens[1].column, ".tile " + tokens[1].text + ": " + problem);
    if (const std::string over = charge_input_tile(m_charged, t.desc); !over.empty())
      return fail(tokens[1].column, ".tile " + tokens[1].text + ": " + over);
    for (auto& d : t.data) d.assign(t.desc.element_count(), std::nullopt);
    m_out.tiles.push_back(std::move(t));
    return true;
  }

  bool file_directive(ProgramTile& t, model::PeMask pes, const std::vector<Token>& tokens,
                      const std::vector<Token>& rest) {
    if (rest.size() != 1) return fail(tokens[0].column, ".file needs a tile register and one path");
    std::string path = rest[0].text;
    const auto slash = m_path.rfind('/');
    if (path[0] != '/' && slash != std::string::npos) path = m_path.substr(0, slash + 1) + path;
    std::string error;
    const auto contents = read_file(path, error);  // a directory or an I/O error is an error, not no values
    if (!contents) return fail(rest[0].column, error);
    m_out.value_files.push_back(path);
    const bool raw = path.size() > 4 && path.compare(path.size() - 4, 4, ".bin") == 0;
    if (!raw) {
      // Values separated as on a .data line (blanks or commas, lines too, and ; comments); a
      // problem is named by its own line and column in the file.
      const std::string_view text = without_bom(*contents);
      std::size_t line = 1, line_start = 0;
      auto at = [&](std::size_t i) {
        return path + ":" + std::to_string(line) + ":" + std::to_string(i - line_start + 1) + ": ";
      };
      if (const auto comma = empty_field(text, false)) {
        for (std::size_t i = 0; i < *comma; ++i) {
          if (text[i] != '\n') continue;
          ++line;
          line_start = i + 1;
        }
        return fail(rest[0].column, at(*comma) + "a comma with no value after it");
      }
      bool any = false;
      for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '\n') {
          ++line;
          line_start = ++i;
          continue;
        }
        if (text[i] == ';') {  // a comment, to the line's end
          i = std::min(text.find('\n', i), text.size());
          continue;
        }
        if (separates(text[i])) {
          ++i;
          continue;
        }
        std::size_t end = i;
        while (end < text.size() && !separates(text[end]) && text[end] != ';') ++end;
        std::string problem;
        const auto bits = element_value(t.desc.dtype, text.substr(i, end - i), problem);
        if (!bits) return fail(rest[0].column, at(i) + problem);
        if (!append_value(t, pes, *bits, rest[0].column, at(i))) return false;
        any = true;
        i = end;
      }
      if (!any) return fail(rest[0].column, path + ": no values");
      return true;
    }
    // Raw: the fragment's storage bytes, little-endian lanes in layout order; all of it defined.
    const std::vector<std::uint8_t> bytes(contents->begin(), contents->end());
    if (bytes.size() != t.desc.storage_bytes())
      return fail(rest[0].column, path + ": " + std::to_string(bytes.size()) + " bytes, the tile's storage needs " +
                                      std::to_string(t.desc.storage_bytes()));
    Fill& fill = m_fill[static_cast<std::size_t>(&t - m_out.tiles.data())];
    for (int pe = 0; pe < model::kPeCount; ++pe) {
      if (!pes.has(pe)) continue;
      if (fill.count[pe] != 0)
        return fail(rest[0].column, t.ref.name() + " already has values on PE" + std::to_string(pe));
      fill.count[pe] = std::uint64_t{t.desc.valid_rows} * t.desc.valid_cols;  // complete: later values are errors
      for (std::uint32_t r = 0; r < t.desc.rows; ++r)
        for (std::uint32_t c = 0; c < t.desc.cols; ++c)
          t.data[pe][std::uint64_t{r} * t.desc.cols + c] = model::load_element(t.desc, bytes.data(), r, c);
    }
    return true;
  }

  bool fill_directive(ProgramTile& t, model::PeMask pes, const std::vector<Token>& tokens,
                      const std::vector<Token>& rest) {
    if (rest.size() != 1) return fail(tokens[0].column, ".fill needs a tile register and one value");
    std::string problem;
    const auto bits = element_value(t.desc.dtype, rest[0].text, problem);
    if (!bits) return fail(rest[0].column, problem);
    const std::uint64_t count = std::uint64_t{t.desc.valid_rows} * t.desc.valid_cols;
    for (std::uint64_t i = 0; i < count; ++i)
      if (!append_value(t, pes, *bits, rest[0].column)) return false;
    return true;
  }

  /// A type's finite values as errors name them: "S8's range [-128, 127]".
  static std::string type_range(model::DataType type) {
    return std::string(model::data_type_name(type)) + "'s range [" + exact_text(type, model::numeric::lowest_finite(type)) +
           ", " + exact_text(type, model::numeric::max_finite(type)) + "]";
  }

  /// A .random bound of a tile of `type`. Floating tiles take any finite decimal (bound_fits
  /// checks the type's range). Other tiles draw 64-bit signed integers: an integer literal is read
  /// exactly into `integer` (through a double, bounds near 2^63 would round onto it), any other
  /// decimal into `real` only, and |bound| < 2^63.
  bool random_bound(model::DataType type, const std::string& key, const Token& token, double& real,
                    std::optional<std::int64_t>& integer) {
    const std::string& text = token.text;
    const bool floating = model::is_float(type);
    std::string_view digits = text;
    if (digits.size() > 1 && digits[0] == '+' && model::ascii_digit(digits[1]))
      digits.remove_prefix(1);  // from_chars takes no '+'
    const char* last = digits.data() + digits.size();
    std::int64_t exact = 0;
    const auto [end, ec] = std::from_chars(digits.data(), last, exact);
    if (end == last && ec == std::errc() && exact != std::numeric_limits<std::int64_t>::min()) {
      integer = exact;
      real = static_cast<double>(exact);
      return true;
    }
    // strtod would take a hexadecimal number, which reads like a .data encoding but is not one.
    if (text.find_first_of("xX") != std::string::npos)
      return fail(token.column, key + ": expected a decimal number, got '" + text +
                                    "' (a bound is a value; encodings such as 0x3c00 are for .data and .fill)");
    errno = 0;
    char* parsed_end = nullptr;
    real = std::strtod(text.c_str(), &parsed_end);
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || parsed_end != text.c_str() + text.size() ||
        std::isnan(real) || (std::isinf(real) && errno != ERANGE))
      return fail(token.column, key + ": expected a finite number, got '" + text + "'");
    integer = std::nullopt;
    if (floating ? std::isfinite(real) : std::fabs(real) < 0x1p63) return true;
    // Beyond a double (1e400), or beyond the 64-bit draws: blame the type's range where the value
    // is outside it too.
    std::string problem;
    if (floating || !element_value(type, text, problem))
      return fail(token.column, key + ": " + text + " is outside " + type_range(type));
    return fail(token.column, key + ": " + text + " is out of range: integers are drawn as 64-bit signed values (|" + key +
                                  "| < 2^63)");
  }

  /// Fails unless `value`, bound `key` as drawn from (given, or its default), is a finite value of
  /// the tile's type, so that every draw is one.
  bool bound_fits(const ProgramTile& t, const std::map<std::string, Token>& opts, const std::string& key,
                  const std::string& value, int directive_column) {
    std::string problem;
    if (element_value(t.desc.dtype, value, problem)) return true;
    const std::string range = type_range(t.desc.dtype);
    if (opts.count(key)) return fail(opts.at(key).column, key + ": " + opts.at(key).text + " is outside " + range);
    return fail(directive_column, "the default " + key + " " + value + " is outside " + range + ": give " + key + "=");
  }

  bool random_directive(ProgramTile& t, model::PeMask pes, const std::vector<Token>& tokens,
                        const std::map<std::string, Token>& opts) {
    const bool floating = model::is_float(t.desc.dtype);
    std::uint64_t seed = 1;
    if (opts.count("seed")) {
      const auto s = model::parse_unsigned(opts.at("seed").text);
      if (!s)
        return fail(opts.at("seed").column, "seed: expected a non-negative integer (decimal or 0x hex), got '" + opts.at("seed").text + "'");
      seed = *s;
    }
    double lo = floating ? -1.0 : 0.0, hi = floating ? 1.0 : 100.0;
    std::optional<std::int64_t> lo_exact = floating ? -1 : 0, hi_exact = floating ? 1 : 100;
    if (opts.count("min") && !random_bound(t.desc.dtype, "min", opts.at("min"), lo, lo_exact)) return false;
    if (opts.count("max") && !random_bound(t.desc.dtype, "max", opts.at("max"), hi, hi_exact)) return false;
    const bool ordered = lo_exact && hi_exact ? *lo_exact <= *hi_exact : lo <= hi;
    if (!ordered) return fail(tokens[0].column, ".random needs min <= max");
    std::mt19937_64 rng(seed);
    const std::uint64_t count = std::uint64_t{t.desc.valid_rows} * t.desc.valid_cols;
    char text[64];
    // A value's text, as a fill of it with .data reads: for floats printf's "%.17g", which
    // to_chars writes without parsing a format.
    const auto text_of = [&text](auto value) {
      std::to_chars_result r{};
      if constexpr (std::is_floating_point_v<decltype(value)>)
        r = std::to_chars(text, text + sizeof text, value, std::chars_format::general, 17);
      else
        r = std::to_chars(text, text + sizeof text, value);
      return std::string_view(text, static_cast<std::size_t>(r.ptr - text));
    };
    auto draw = [&](const auto& next) {
      for (std::uint64_t i = 0; i < count; ++i) {
        std::string problem;
        const auto bits = element_value(t.desc.dtype, text_of(next()), problem);
        if (!bits) return fail(tokens[0].column, "random value: " + problem);
        if (!append_value(t, pes, *bits, tokens[0].column)) return false;
      }
      return true;
    };
    if (floating) {
      if (!(lo < hi))
        return fail(tokens[0].column, ".random: floats are drawn from [min, max), empty unless min < max");
      for (auto [key, value] : {std::pair{"min", lo}, {"max", hi}})
        if (!bound_fits(t, opts, key, std::string(text_of(value)), tokens[0].column)) return false;
      if (!std::isfinite(hi - lo))  // uniform_real_distribution scales by it
        return fail(tokens[0].column, ".random: max - min must be a finite binary64 value");
      std::uniform_real_distribution<double> real(lo, hi);  // [min, max)
      return draw([&] { return real(rng); });
    }
    // Integers: [min, max], a fractional min rounding up and a fractional max down.
    const std::int64_t first = lo_exact ? *lo_exact : static_cast<std::int64_t>(std::ceil(lo));
    const std::int64_t last = hi_exact ? *hi_exact : static_cast<std::int64_t>(std::floor(hi));
    if (first > last) return fail(tokens[0].column, ".random: no integer in [min, max]");
    if (!bound_fits(t, opts, "min", std::string(text_of(first)), tokens[0].column) ||
        !bound_fits(t, opts, "max", std::string(text_of(last)), tokens[0].column))
      return false;
    std::uniform_int_distribution<std::int64_t> integer(first, last);
    return draw([&] { return integer(rng); });
  }

  bool gpr_directive(const std::vector<Token>& tokens) {
    if (tokens.size() != 4) return fail(tokens[0].column, ".gpr needs PE0..PE3|all, a register r1..r23 and a value");
    GprInit g;
    const std::string& who = tokens[1].text;
    if (who == "all") {
      g.pes = model::PeMask::all();
    } else if (who.size() == 3 && who.rfind("PE", 0) == 0 && who[2] >= '0' && who[2] <= '3') {
      g.pes = model::PeMask(static_cast<std::uint8_t>(8 >> (who[2] - '0')));
    } else {
      return fail(tokens[1].column, "expected PE0..PE3 or all");
    }
    const std::string& reg = tokens[2].text;
    const auto sel = reg.size() > 1 && reg[0] == 'r' ? model::parse_decimal(std::string_view(reg).substr(1)) : std::nullopt;
    if (!sel || *sel < 1 || *sel >= model::kGprCount) return fail(tokens[2].column, "expected a GPR r1..r23");
    g.selector = static_cast<unsigned>(*sel);
    const std::string& text = tokens[3].text;
    if (!text.empty() && text[0] == '-') {
      std::int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size())
        return fail(tokens[3].column, "expected a 64-bit value");
      g.value = static_cast<std::uint64_t>(v);
    } else {
      const auto v = model::parse_unsigned(text);
      if (!v) return fail(tokens[3].column, "expected a 64-bit value");
      g.value = *v;
    }
    // Set once: a second value for the same register is a mistake, not an update.
    for (const GprInit& earlier : m_out.gprs)
      for (int pe = 0; pe < model::kPeCount; ++pe)
        if (earlier.selector == g.selector && earlier.pes.has(pe) && g.pes.has(pe))
          return fail(tokens[2].column, reg + " is already set on PE" + std::to_string(pe));
    m_out.gprs.push_back(g);
    return true;
  }

  std::string m_path;
  ProgramFile& m_out;
  int m_line = 0;
  std::string m_error;
  /// Values given so far per input tile and PE, and where each PE's last one was (a count short
  /// of the valid region is reported there).
  struct Fill {
    std::array<std::uint64_t, model::kPeCount> count{};
    std::array<std::pair<int, int>, model::kPeCount> last{};  ///< line, column
  };
  std::map<std::size_t, Fill> m_fill;
  InputCharge m_charged{};
};

}  // namespace

bool parse_program_text(const std::string& text, const std::string& path, ProgramFile& out, std::string& error) {
  out = ProgramFile{};
  return Parser(path, out).parse(text, error);
}

bool parse_program_file(const std::string& path, ProgramFile& out, std::string& error) {
  const auto text = read_file(path, error);
  return text && parse_program_text(*text, path, out, error);
}

}  // namespace ptosim::platforms
