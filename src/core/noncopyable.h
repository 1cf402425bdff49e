// The one way a class says it is not copied (it owns a GL object, a context, a registration or a place in a
// chain of scopes): derive from NonCopyable. Copying and moving a derived object are then deleted, as
// deleting its own copy constructor and copy assignment would do.
#pragma once

namespace posenc {

class NonCopyable {
 protected:
  NonCopyable() = default;
  ~NonCopyable() = default;

 public:
  NonCopyable(const NonCopyable&) = delete;
  NonCopyable& operator=(const NonCopyable&) = delete;
};

}  // namespace posenc
