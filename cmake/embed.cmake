# bs_embed(OUT_VAR SYMBOL FILE...): compiles text files into the binary.
# Each FILE becomes `const char SYMBOL_<basename>[]` (NUL-terminated) in a
# generated C file; the file is regenerated when an input changes.
set(BS_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_gen.cmake)

function(bs_embed out_var symbol)
	set(out ${CMAKE_BINARY_DIR}/generated/${symbol}.c)
	# A ';' list would split the command line: pass it with '|'.
	string(REPLACE ";" "|" files "${ARGN}")
	add_custom_command(OUTPUT ${out}
		COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${symbol}
			"-DFILES=${files}" -P ${BS_EMBED_SCRIPT}
		DEPENDS ${ARGN} ${BS_EMBED_SCRIPT} VERBATIM
		COMMENT "Embedding ${symbol}")
	set(${out_var} ${out} PARENT_SCOPE)
endfunction()
