-- gsub calling gsub calling gsub... through the replacement function.
local function r(s) return (s:gsub(".", r)) end
function act(obs) return r("ab") end
