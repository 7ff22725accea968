#include "runtime-cpu/NBodyReference.h"

namespace star::cpu {

void nbody_forces(const NBodySystem&, std::vector<double>&, std::vector<double>&,
                  std::vector<double>&) {}  // placeholder
void nbody_verlet(NBodySystem&, double, std::uint64_t) {}  // placeholder

}  // namespace star::cpu
