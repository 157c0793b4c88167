// SPDX-License-Identifier: BSD-3-Clause
#include "platforms/ptosim/scenario.h"

#include <cctype>
#include <charconv>

namespace ptosim::platforms {

namespace {

using Json = nlohmann::json;

bool parse_hex(const std::string& text, unsigned digits, std::uint64_t& value) {
  if (text.size() != digits) return false;
  for (char c : text)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string parse_fragment(const Json& arr, const std::string& field, const model::TileDescriptor& d,
                           model::FragmentData& out) {
  if (!arr.is_array()) return field + ": expected an array of hex strings";
  if (arr.size() > d.element_count())
    return field + ": " + std::to_string(arr.size()) + " entries for a " + std::to_string(d.rows) + "x" +
           std::to_string(d.cols) + " tile (" + std::to_string(d.element_count()) + " elements)";
  const unsigned digits = model::element_bits(d.dtype) / 4;
  out.assign(d.element_count(), std::nullopt);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    if (arr[i].is_null()) continue;
    std::uint64_t v = 0;
    if (!arr[i].is_string() || !parse_hex(arr[i].get<std::string>(), digits, v))
      return field + "[" + std::to_string(i) + "]: expected " + std::to_string(digits) + " hex digits (" +
             model::data_type_name(d.dtype) + ") or null, got " + arr[i].dump();
    out[i] = v;
  }
  return "";
}

template <typename T>
std::string get_uint(const Json& obj, const char* key, const std::string& where, std::optional<T>& out) {
  if (!obj.contains(key)) return "";
  const Json& v = obj.at(key);
  if (!v.is_number_unsigned()) return where + "." + key + ": expected a non-negative integer, got " + v.dump();
  out = v.get<T>();
  return "";
}

}  // namespace

std::string encode_hex(model::DataType t, std::uint64_t bits) {
  static const char* kDigits = "0123456789abcdef";
  const unsigned digits = model::element_bits(t) / 4;
  std::string s(digits, '0');
  for (unsigned i = 0; i < digits; ++i) s[digits - 1 - i] = kDigits[(bits >> (4 * i)) & 0xF];
  return s;
}

std::string make_input_descriptor(InputFields fields, bool shared, model::DataType dtype, std::uint64_t capacity,
                                  std::optional<std::uint64_t> cols, std::optional<std::uint64_t> rows,
                                  std::uint64_t valid_rows, std::uint64_t valid_cols, model::Layout layout,
                                  model::Location location, model::PeMask mask, model::TileDescriptor& out) {
  // The valid shape's fields: valid_rows and valid_cols, or the one valid=RxC.
  const bool directive = fields == InputFields::TileDirective;
  const std::string valid_shape = directive ? "valid" : "valid_rows/valid_cols";
  out = model::TileDescriptor{};
  out.dtype = dtype;
  out.layout = layout;
  out.location = location;
  out.pe_mask = mask;
  // The valid shape first: a program file's default capacity is derived from it.
  if (valid_rows > model::kMaxDimension || valid_cols > model::kMaxDimension) return valid_shape + ": must fit 16 bits";
  if (capacity == 0 || capacity > model::kMaxTileBytes)
    return "capacity: must be 1.." + std::to_string(model::kMaxTileBytes) + " bytes";
  if (shared && model::is_cube_layout(layout)) return "layout: Shared tiles never use CUBE layouts";
  out.capacity_bytes = static_cast<std::uint32_t>(capacity);
  out.valid_rows = static_cast<std::uint32_t>(valid_rows);
  out.valid_cols = static_cast<std::uint32_t>(valid_cols);
  if (model::is_cube_layout(layout)) {
    if (!model::cell_shape(layout, dtype))
      return std::string("layout: ") + model::data_type_name(dtype) + " has no CELL geometry, so it never takes CUBE layouts";
    const auto shape = model::cube_storage_shape(layout, dtype, out.valid_rows, out.valid_cols);
    if (!shape)
      return valid_shape + ": a " + model::data_type_name(dtype) + " " + model::layout_name(layout) +
             " tile cannot hold a " + std::to_string(valid_rows) + "x" + std::to_string(valid_cols) + " valid shape";
    if (rows && *rows != shape->rows)
      return "rows: " + std::to_string(*rows) + " does not match the CELL storage rows " + std::to_string(shape->rows);
    if (cols && *cols != shape->cols)
      return "cols: " + std::to_string(*cols) + " does not match the CELL storage columns " + std::to_string(shape->cols);
    out.rows = shape->rows;
    out.cols = shape->cols;
  } else {
    if (!cols) return "cols: required for ordinary layouts";
    if (*cols == 0 || *cols > model::kMaxDimension) return "cols: must be 1..65535";
    out.cols = static_cast<std::uint32_t>(*cols);
    const auto derived = model::derived_rows(dtype, out.capacity_bytes, out.cols);
    if (!derived) {
      const std::uint64_t row_bits = *cols * model::element_bits(dtype), bits = capacity * 8;
      if ((*cols & (*cols - 1)) != 0) return "cols: " + std::to_string(*cols) + " is not a power of two";
      const std::string size = "capacity/cols: capacity " + std::to_string(capacity) + " B ";
      const std::string row = std::to_string(*cols) + " " + model::data_type_name(dtype) + " elements";
      if (bits < row_bits) return size + "is less than one row of " + row;
      if (bits % row_bits != 0) return size + "does not divide into rows of " + row;
      return size + "in rows of " + row + " gives " + std::to_string(bits / row_bits) + " rows, more than " +
             std::to_string(model::kMaxDimension);
    }
    if (rows && *rows != *derived)
      return "rows: " + std::to_string(*rows) + " does not match the rows derived from capacity, cols and type (" +
             std::to_string(*derived) + ")";
    out.rows = *derived;
  }
  const auto problem = model::descriptor_problem(out);
  if (!problem) return "";
  // The input field at fault: rows and cols are derived (from the capacity, or from a CUBE tile's
  // valid shape), so a shape problem is named by what they were derived from.
  const bool cube = model::is_cube_layout(layout);
  std::string field = "layout";
  switch (problem->part) {
    case model::DescriptorProblem::Part::Shape:
      field = cube ? valid_shape : "capacity/cols";
      break;
    case model::DescriptorProblem::Part::ValidShape:
      field = cube || directive ? valid_shape : out.valid_rows > out.rows ? "valid_rows" : "valid_cols";
      break;
    case model::DescriptorProblem::Part::Capacity:
      field = "capacity";
      break;
    case model::DescriptorProblem::Part::Layout:
      break;
  }
  return field + ": " + std::string(problem->rule);
}

std::string charge_input_tile(InputCharge& charged, const model::TileDescriptor& desc) {
  for (int pe = 0; pe < model::kPeCount; ++pe) {
    if (!desc.pe_mask.has(pe)) continue;
    const std::uint64_t total = charged[pe] + desc.capacity_bytes;
    if (total > model::kDefaultTileCapacity)
      return "the input tiles hold " + std::to_string(total) + " bytes on PE" + std::to_string(pe) +
             ", beyond its tile capacity (" + std::to_string(model::kDefaultTileCapacity) + ")";
  }
  for (int pe = 0; pe < model::kPeCount; ++pe)
    if (desc.pe_mask.has(pe)) charged[pe] += desc.capacity_bytes;
  return "";
}

std::string parse_scenario(const Json& doc, Scenario& out) {
  if (!doc.is_object()) return "scenario: expected a JSON object";
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "allocation" && it.key() != "tiles" && it.key() != "gprs" && it.key() != "status" &&
        it.key() != "program")
      return it.key() + ": unknown field";
  if (doc.contains("allocation")) {
    const Json& a = doc["allocation"];
    const auto spec = a.is_string() ? model::allocation_spec_from_text(a.get<std::string>()) : std::nullopt;
    if (!spec) return "allocation: expected \"asl\", \"queue\" or \"queue:N\" (N = 1..16), got " + a.dump();
    out.allocation = *spec;
  }
  if (!doc.contains("program") || !doc["program"].is_string()) return "program: required string";
  out.program = doc["program"].get<std::string>();

  if (doc.contains("tiles")) {
    const Json& tiles = doc["tiles"];
    if (!tiles.is_array()) return "tiles: expected an array";
    InputCharge charged{};
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      const Json& t = tiles[i];
      const std::string where = "tiles[" + std::to_string(i) + "]";
      if (!t.is_object()) return where + ": expected an object";
      for (auto it = t.begin(); it != t.end(); ++it) {
        static const char* kFields[] = {"reg", "dtype", "capacity", "cols", "rows", "valid_rows", "valid_cols",
                                        "layout", "location", "pe_mask", "data", "data_per_pe"};
        bool known = false;
        for (const char* f : kFields) known = known || it.key() == f;
        if (!known) return where + "." + it.key() + ": unknown field";
      }
      auto str = [&](const char* key, std::string& v) -> std::string {
        if (!t.contains(key) || !t[key].is_string()) return where + "." + key + ": required string";
        v = t[key].get<std::string>();
        return "";
      };
      ScenarioTile tile;
      std::string reg, dtype, layout = "RowMajor", location = "Any", mask = "1111";
      if (auto e = str("reg", reg); !e.empty()) return e;
      const auto ref = model::TileRef::parse(reg);
      if (!ref) return where + ".reg: '" + reg + "' is not T#1..N#16 or S0..S255";
      tile.ref = *ref;
      if (auto e = str("dtype", dtype); !e.empty()) return e;
      const auto dt = model::data_type_from_name(dtype);
      if (!dt) return where + ".dtype: unknown DataType '" + dtype + "'";
      if (t.contains("layout") && (layout = "", !str("layout", layout).empty())) return where + ".layout: expected a string";
      if (t.contains("location") && (location = "", !str("location", location).empty()))
        return where + ".location: expected a string";
      if (t.contains("pe_mask") && (mask = "", !str("pe_mask", mask).empty())) return where + ".pe_mask: expected a string";
      const auto lay = model::layout_from_name(layout);
      if (!lay) return where + ".layout: unknown layout '" + layout + "' (" + model::layout_names() + ")";
      const auto loc = model::location_from_name(location);
      if (!loc) return where + ".location: unknown location '" + location + "' (" + model::location_names() + ")";
      const auto pm = model::PeMask::parse(mask);
      if (!pm) return where + ".pe_mask: expected four 0/1 characters, PE0 first";
      std::optional<std::uint64_t> capacity, cols, rows, vr, vc;
      for (auto [key, dst] : {std::pair{"capacity", &capacity}, {"cols", &cols}, {"rows", &rows},
                              {"valid_rows", &vr}, {"valid_cols", &vc}})
        if (auto e = get_uint(t, key, where, *dst); !e.empty()) return e;
      if (!capacity) return where + ".capacity: required";
      if (!vr || !vc) return where + ".valid_rows/valid_cols: required";
      if (auto e = make_input_descriptor(InputFields::Scenario, tile.ref.is_shared(), *dt, *capacity, cols, rows, *vr, *vc, *lay, *loc, *pm,
                                         tile.desc);
          !e.empty())
        return where + "." + e;
      if (auto e = charge_input_tile(charged, tile.desc); !e.empty()) return where + ".capacity: " + e;
      model::FragmentData common;
      if (t.contains("data")) {
        if (auto e = parse_fragment(t["data"], where + ".data", tile.desc, common); !e.empty()) return e;
      } else {
        common.assign(tile.desc.element_count(), std::nullopt);
      }
      for (auto& d : tile.data) d = common;
      if (t.contains("data_per_pe")) {
        const Json& per = t["data_per_pe"];
        if (!per.is_object()) return where + ".data_per_pe: expected an object keyed PE0..PE3";
        for (auto it = per.begin(); it != per.end(); ++it) {
          const std::string& k = it.key();
          if (k.size() != 3 || k[0] != 'P' || k[1] != 'E' || k[2] < '0' || k[2] > '3')
            return where + ".data_per_pe." + k + ": expected PE0..PE3";
          const int pe = k[2] - '0';
          if (!tile.desc.pe_mask.has(pe))
            return where + ".data_per_pe." + k + ": " + k + " is not in pe_mask " + tile.desc.pe_mask.to_string() +
                   ", so it holds no fragment of this tile";
          if (auto e = parse_fragment(it.value(), where + ".data_per_pe." + k, tile.desc, tile.data[pe]); !e.empty())
            return e;
        }
        // A Shared tile is one payload that every PE of its mask sees: their contents must agree.
        if (tile.ref.is_shared()) {
          int first = -1;
          for (int pe = 0; pe < model::kPeCount; ++pe) {
            if (!tile.desc.pe_mask.has(pe)) continue;
            if (first < 0) first = pe;
            else if (tile.data[pe] != tile.data[first])
              return where + ".data_per_pe: a Shared tile holds one payload for every PE of its mask; PE" +
                     std::to_string(pe) + " differs from PE" + std::to_string(first);
          }
          if (first > 0) tile.data[0] = tile.data[first];  // the payload (ScenarioTile::data)
        }
      }
      for (const ScenarioTile& other : out.tiles)
        if (other.ref == tile.ref) return where + ".reg: " + reg + " is given twice";
      out.tiles.push_back(std::move(tile));
    }
  }
  if (doc.contains("gprs")) {
    const Json& g = doc["gprs"];
    if (!g.is_object()) return "gprs: expected an object keyed PE0..PE3";
    for (auto it = g.begin(); it != g.end(); ++it) {
      const std::string& k = it.key();
      if (k.size() != 3 || k[0] != 'P' || k[1] != 'E' || k[2] < '0' || k[2] > '3') return "gprs." + k + ": expected PE0..PE3";
      const int pe = k[2] - '0';
      if (!it.value().is_object()) return "gprs." + k + ": expected an object keyed by selector";
      for (auto r = it.value().begin(); r != it.value().end(); ++r) {
        unsigned sel = 0;
        auto [end, ec] = std::from_chars(r.key().data(), r.key().data() + r.key().size(), sel);
        if (ec != std::errc() || end != r.key().data() + r.key().size() || sel < 1 || sel >= model::kGprCount)
          return "gprs." + k + "." + r.key() + ": selector must be 1..23";
        std::string text = r.value().is_string() ? r.value().get<std::string>() : "";
        if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) text = text.substr(2);
        std::uint64_t v = 0;
        auto [e2, ec2] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
        if (text.empty() || text.size() > 16 || ec2 != std::errc() || e2 != text.data() + text.size())
          return "gprs." + k + "." + r.key() + ": expected a 64-bit hex string like \"0x10\"";
        out.gprs[pe][sel] = v;
      }
    }
  }
  if (doc.contains("status")) {
    const Json& s = doc["status"];
    if (!s.is_array()) return "status: expected an array of flag names";
    for (const Json& f : s) {
      const auto flag = f.is_string() ? model::flag_from_name(f.get<std::string>()) : std::nullopt;
      if (!flag) return "status: unknown flag " + f.dump() + " (NV DZ OF UF NX)";
      out.status |= *flag;
    }
  }
  return "";
}

nlohmann::ordered_json scenario_output(const std::vector<ScenarioBundle>& bundles, const model::FunctionalMachine& m) {
  using OJson = nlohmann::ordered_json;
  OJson out;
  out["bundles"] = OJson::array();
  for (std::size_t i = 0; i < bundles.size(); ++i) {
    OJson b;
    b["index"] = i;
    b["op"] = bundles[i].op;
    b["outcome"] = bundles[i].kind == model::BundleOutcome::Kind::Committed ? "committed"
                   : bundles[i].kind == model::BundleOutcome::Kind::Noop    ? "noop"
                                                                             : "fault";
    if (bundles[i].fault)
      b["fault"] = OJson{{"code", model::fault_code_name(bundles[i].fault->code)}, {"rule", bundles[i].fault->rule}};
    out["bundles"].push_back(b);
  }
  auto describe = [](const model::TileDescriptor& d, const std::string& reg) {
    OJson t;
    t["reg"] = reg;
    t["dtype"] = model::data_type_name(d.dtype);
    t["capacity"] = d.capacity_bytes;
    t["cols"] = d.cols;
    t["rows"] = d.rows;
    t["valid_rows"] = d.valid_rows;
    t["valid_cols"] = d.valid_cols;
    t["layout"] = model::layout_name(d.layout);
    t["location"] = model::location_name(d.location);
    t["pe_mask"] = d.pe_mask.to_string();
    return t;
  };
  auto elements = [](const model::TileDescriptor& d, const model::FragmentData& data) {
    OJson arr = OJson::array();
    for (const auto& e : data) arr.push_back(e ? OJson(encode_hex(d.dtype, *e)) : OJson(nullptr));
    return arr;
  };
  out["tiles"] = OJson::array();
  const model::TileState& s = m.state();
  for (unsigned i = 0; i < model::kLocalTileCount; ++i) {
    const model::LocalTile& lt = s.local(i);
    if (!lt.allocated) continue;
    OJson t = describe(lt.desc, model::TileRef::local(i).name());
    OJson per = OJson::object();
    for (int pe = 0; pe < model::kPeCount; ++pe)
      if (lt.desc.pe_mask.has(pe)) per["PE" + std::to_string(pe)] = elements(lt.desc, m.read_local(i, pe));
    t["data_per_pe"] = per;
    out["tiles"].push_back(t);
  }
  for (unsigned i = 0; i < model::kSharedTileCount; ++i) {
    const model::SharedTile& st = s.shared(i);
    if (!st.allocated) continue;
    OJson t = describe(st.desc, model::TileRef::shared(i).name());
    t["pe_mask"] = st.allocation_mask.to_string();
    OJson per = OJson::object();
    const OJson data = elements(st.desc, m.read_shared(i));
    for (int pe = 0; pe < model::kPeCount; ++pe)
      if (st.allocation_mask.has(pe)) per["PE" + std::to_string(pe)] = data;
    t["data_per_pe"] = per;
    out["tiles"].push_back(t);
  }
  out["status"] = OJson::array();
  for (const std::string& f : model::flag_names(s.status())) out["status"].push_back(f);
  return out;
}

}  // namespace ptosim::platforms
