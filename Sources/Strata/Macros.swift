@attached(member, names: named(strataHello))
public macro Model() = #externalMacro(module: "StrataMacros", type: "ModelMacro")
