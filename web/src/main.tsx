import { render } from "preact";
import { App } from "./ui/App";
import "./styles.css";

render(<App />, document.getElementById("app")!);
