// Reading a Case's sweep coordinates back inside Experiment::Run.
#pragma once

#include <string>

#include "experiments/experiment.h"

namespace arena {

/// Whether the case has the param.
bool HasParam(const Case& c, const std::string& name);
/// The param's text / number; throws InvalidArgument naming the case and the missing param.
std::string ParamText(const Case& c, const std::string& name);
double ParamNumber(const Case& c, const std::string& name);

/// A config value as a cell: a double when it parses as a number, empty when empty, else text.
Value ParamValue(const std::string& text);

}  // namespace arena
