#pragma once
/// Every storage format of the project, in the registry's teaching order: the one list that
/// AnyMatrix (any_matrix.hpp) and the registry (lib/src/registry.cpp) are generated from.
///
/// SPMV_FOR_EACH_FORMAT(X) calls X(name, Type) once per format: `name` is the registry name
/// (and the prefix of the format's files: formats/<name>.hpp, lib/src/formats/<name>.cpp, its
/// story lib/src/formats/<name>_story.cpp with <name>_entry()), `Type` the class template
/// Type<ValueType, IndexType>. Adding a format is written down once, in docs/adding_a_format.md:
/// its own files, the two lines here (the #include and the X line) and one line per GPU kernel
/// in kernels/src/variant_list.inc.
#include <spmv/formats/coo.hpp>
#include <spmv/formats/csr.hpp>
#include <spmv/formats/csc.hpp>
#include <spmv/formats/ell.hpp>
#include <spmv/formats/ellr.hpp>
#include <spmv/formats/ellg.hpp>
#include <spmv/formats/jds.hpp>
#include <spmv/formats/jds_csr.hpp>
#include <spmv/formats/pjds.hpp>
#include <spmv/formats/pellr.hpp>
#include <spmv/formats/biell.hpp>
#include <spmv/formats/bijad.hpp>
#include <spmv/formats/hyb.hpp>
#include <spmv/formats/sell.hpp>

// clang-format off
#define SPMV_FOR_EACH_FORMAT(X) \
    X(coo, Coo)                 \
    X(csr, Csr)                 \
    X(csc, Csc)                 \
    X(ell, Ell)                 \
    X(ellr, EllR)               \
    X(ellg, EllG)               \
    X(jds, Jds)                 \
    X(jds_csr, JdsCsr)          \
    X(pjds, Pjds)               \
    X(pellr, Pellr)             \
    X(biell, BiEll)             \
    X(bijad, BiJad)             \
    X(hyb, Hyb)                 \
    X(sell, SellCSigma)
// clang-format on
