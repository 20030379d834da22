// The per-format model (lib/include/spmv/model/format_model.hpp) restates every own GPU kernel
// variant of kernels/src/variant_list.inc: a variant added there without a model, or a model
// whose host format differs from the kernel's, fails here (the build without CUDA lists the
// same variants).
#include <catch2/catch.hpp>

#include <string>

#include <spmv/gpu/variants.hpp>
#include <spmv/model/format_model.hpp>

TEST_CASE("format model: every own GPU kernel variant is modelled, with its host format", "[model][variants]")
{
    int own = 0;
    for (const auto& v : spmv::gpu::kernel_variants()) {
        if (v.baseline) {
            CHECK(spmv::model::find_modelled_variant(v.name) == nullptr);
            continue;
        }
        ++own;
        INFO("variant " << std::string(v.name));
        const auto* m = spmv::model::find_modelled_variant(v.name);
        REQUIRE(m != nullptr);
        CHECK(m->format == v.format);
    }
    CHECK(own == static_cast<int>(spmv::model::modelled_variants().size()));
}
