// SPDX-License-Identifier: BSD-3-Clause
// ScopedExtension: attaches a caller-owned extension to a generic payload for one scope and
// detaches it however the scope ends (SC_REPORT_ERROR throws), so the payload's destructor never
// frees an object it does not own.
#pragma once

#include <tlm>

namespace ptosim::engines {

template <typename T>
class ScopedExtension {
 public:
  ScopedExtension(tlm::tlm_generic_payload& gp, T& ext) : m_gp(gp), m_ext(ext) { m_gp.set_extension(&m_ext); }
  ~ScopedExtension() { m_gp.clear_extension(&m_ext); }
  ScopedExtension(const ScopedExtension&) = delete;
  ScopedExtension& operator=(const ScopedExtension&) = delete;

 private:
  tlm::tlm_generic_payload& m_gp;
  T& m_ext;
};

}  // namespace ptosim::engines
