// Names of the core's enums, one table per enum in the enum's order: the only place a scheme, schedule,
// scaling type or layout is spelt. The CLI's JSON, the views' URL choices and the exports all read these.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace posenc {

// Specialised next to each enum: `static constexpr std::array<const char*, N> names{...}` in enum order.
template <class Enum>
struct EnumNames;

template <class Enum>
constexpr std::span<const char* const> names_of() {
  return EnumNames<Enum>::names;
}

template <class Enum>
constexpr const char* name_of(Enum e) {
  const auto& names = EnumNames<Enum>::names;
  const auto i = static_cast<std::size_t>(e);
  return i < names.size() ? names[i] : "?";
}

template <class Enum>
constexpr std::optional<Enum> from_name(std::string_view name) {
  const auto& names = EnumNames<Enum>::names;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (name == names[i]) return static_cast<Enum>(i);
  return std::nullopt;
}

}  // namespace posenc
