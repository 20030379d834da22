#pragma once
/// The claim rows of `spmvlab replicate`, one file per paper. Each function returns its
/// paper's rows in order; every verdict comes from the one rule (verdict.hpp) through
/// evaluate / fill / fill_cells (engine.hpp).
#include <vector>

#include "replicate/engine.hpp"

namespace spmvlab::replicate {

/// Kreutzer et al. 2012 §II (pJDS against ELLPACK(-R), padding, eq. 1, PCIe eqs. 3-4): K1-K8.
std::vector<Claim> kreutzer_claims(const Context& ctx);
/// Kreutzer et al. 2012 §III / Fig. 5 (vector, naive overlap and task mode): K9-K14.
std::vector<Claim> kreutzer_dist_claims(const Context& ctx);
/// Wang & Gu 2020 (PELLR against ELLR, HYB, BiELL, BiJAD): W1-W11.
std::vector<Claim> wang_claims(const Context& ctx);
/// Barbieri et al. 2012 (ELLG against CUSPARSE CSR, transfers): B1-B2.
std::vector<Claim> barbieri_claims(const Context& ctx);
/// Cevahir et al. 2009 (JDS CSR-like kernel, MPIR-CG, multi-GPU CG) and the project's own
/// refinement claim: C1-C6.
std::vector<Claim> cevahir_claims(const Context& ctx);

}  // namespace spmvlab::replicate
