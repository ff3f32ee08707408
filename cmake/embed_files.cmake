# Writes OUT: a C++ file defining VAR, every DIR/GLOB file as {file name, its bytes}. The bytes are written as
# \xNN escapes, 32 a line, so the text is the file's byte for byte whatever it holds (quotes, backslashes, a
# line end the compiler would translate); the literal's own NUL ends it.
file(GLOB files ${DIR}/${GLOB})
list(SORT files)
set(body "")
foreach(f ${files})
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "(................................................................)" "\\1\"\n   \"" hex "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" text "${hex}")
  get_filename_component(name ${f} NAME)
  string(APPEND body "  {\"${name}\",\n   \"${text}\"},\n")
endforeach()
file(WRITE ${OUT}.tmp "#include <utility>\n#include <vector>\nnamespace imgaudit {\nextern const std::vector<std::pair<const char*, const char*>> ${VAR} = {\n${body}};\n}\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
