package example;

import java.util.List;

/** Greets people by name. */
public class Greeter {
    private final String greeting;

    public Greeter(String greeting) {
        this.greeting = greeting;
    }

    /** Returns the greeting for each name. */
    public List<String> greet(List<String> names) {
        return names.stream().map(n -> greeting + ", " + n + "!").toList();
    }
}

interface Named {
    String name();
}
