// A model option's text as a case parameter, for the sweeps that write the swept option's value
// (param_value) as a column; typed parameters are declared with experiments/common/settings/settings.h.
#pragma once

#include <string>

#include "experiments/experiment.h"

namespace arena {

/// A config value as a cell: a double when it parses as a number, empty when empty, else text.
Value ParamValue(const std::string& text);

}  // namespace arena
