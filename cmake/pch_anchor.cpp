// Anchor of the precompiled headers (cmake/pch.cmake): nothing to compile.
