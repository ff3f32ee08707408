#pragma once

namespace imgaudit {

// imgaudit's exit statuses besides 1 (findings at or above --fail-on, app/gate.h): 0 when all went well,
// 2 for bad usage or an input that cannot be read, said in one line.
inline constexpr int kExitClean = 0;
inline constexpr int kExitError = 2;

}  // namespace imgaudit
